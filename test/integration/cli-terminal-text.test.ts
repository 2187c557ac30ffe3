/**
 * The CLI never lets a server drive the terminal: tool names, descriptions, results, errors,
 * serverInfo and stderr from a hostile server (test/fixtures/servers/adversarial/hostile-output.mjs)
 * reach stdout and stderr with every control sequence escaped; --json carries them exactly.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry, type CliRun } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';

const HOSTILE = join(FIXTURES, 'adversarial/hostile-output.mjs');
const registry = tempRegistry({
  hostile: { command: NODE, args: [HOSTILE] },
  crasher: { command: NODE, args: [HOSTILE, '--crash-at-start'] },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

/** Any character a terminal would act on (newline and tab are layout). */
const RAW_CONTROL = /(?![\t\n])\p{Cc}|[\u202a-\u202e\u2066-\u2069]/u;

function expectInert(run: CliRun): void {
  expect(run.stdout).not.toMatch(RAW_CONTROL);
  expect(run.stderr).not.toMatch(RAW_CONTROL);
}

describe('server text in the terminal', () => {
  it('tools: names and descriptions show their control sequences escaped', async () => {
    const run = await runCli([...g, 'tools', 'hostile', '--yes']);
    expect(run.code).toBe(0);
    expectInert(run);
    expect(run.stdout).toContain('hostile  say  Says hello\\u001b]52;c;ZWNobyBwd25lZCB8IHNo\\u0007\\u001b[8msecret');
    expect(run.stdout).toContain('hostile  boom  Fails\\u009b2J');
    expect(run.stdout).toContain('hostile  sneaky\\u000dharmless');
  });

  it('call: a result keeps its newlines and tabs, everything else is escaped', async () => {
    const run = await runCli([...g, 'call', 'hostile', 'say', '--yes']);
    expect(run.code).toBe(0);
    expectInert(run);
    expect(run.stdout).toBe(
      'hello\\u001b]52;c;ZWNobyBwd25lZCB8IHNo\\u0007\\u001b[8m\\u009b2J\\u001b]0;innocent\\u0007\\u000dworld\nsecond line\tafter a tab\n',
    );
  });

  it("call: a server's error message is escaped in the error line", async () => {
    const run = await runCli([...g, 'call', 'hostile', 'boom', '--yes']);
    expect(run.code).not.toBe(0);
    expectInert(run);
    expect(run.stderr).toContain('it broke\\u001b]52;c;ZWNobyBwd25lZCB8IHNo\\u0007\\u000dall good');
  });

  it("servers: serverInfo and a failed server's stderr are escaped", async () => {
    const run = await runCli([...g, 'servers', '--yes']);
    expectInert(run);
    expect(run.stdout).toContain('hostile\\u001b]0;innocent\\u0007 1.0\\u001b[8m');
    expect(run.stdout).toContain('| fatal\\u001b]52;c;ZWNobyBwd25lZCB8IHNo\\u0007\\u001b[8m hidden\\u000dlooks fine');
  });

  it('--json carries the exact text, escaped as JSON, with no raw control byte', async () => {
    const run = await runCli([...g, '--json', 'call', 'hostile', 'say', '--yes']);
    expect(run.code).toBe(0);
    expectInert(run);
    const [result] = run.json<{ content: Array<{ text: string }> }>();
    expect(result?.content[0]?.text).toBe('hello\u001b]52;c;ZWNobyBwd25lZCB8IHNo\u0007\u001b[8m\u009b2J\u001b]0;innocent\u0007\rworld\nsecond line\tafter a tab');
  });
});
