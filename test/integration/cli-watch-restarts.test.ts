/**
 * `harbor watch` notices its server (issue 28 §2): a server that goes away prints
 * {"event":"disconnected",…} with its stderr tail, its restart {"event":"restarted",…} and `--call`
 * runs again; a connection lost for good prints it and ends with exit 3 — never silence and exit 0.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';

const LEAVES = join(FIXTURES, 'adversarial/leaves-after-call.mjs');
const registries: Array<{ remove(): void }> = [];
afterAll(() => registries.forEach((r) => r.remove()));

function registryFor(extra: string[]) {
  const reg = tempRegistry({});
  registries.push(reg);
  const runs = join(reg.dir, 'runs');
  const again = tempRegistry({ leaver: { command: NODE, args: [LEAVES, `--runs-file=${runs}`, ...extra], trusted: true } });
  registries.push(again);
  return again;
}

describe('harbor watch when its server goes away', () => {
  it('prints disconnected (with the stderr tail), then restarted, and runs --call again', async () => {
    const reg = registryFor([]);
    const lines: Record<string, unknown>[] = [];
    const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'watch', 'leaver', '--call', 'leave', '--yes', '--seconds', '25'], {
      timeoutMs: 90_000,
      onStdoutLine: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    const disconnected = lines.find((l) => l.event === 'disconnected');
    expect(disconnected, run.stderr).toMatchObject({ event: 'disconnected', reconnecting: { attempt: 1 } });
    expect(String(disconnected!.stderrTail)).toContain('leaving now (run 1)');
    const restarted = lines.find((l) => l.event === 'restarted');
    expect(restarted).toMatchObject({ event: 'restarted', call: { tool: 'leave', runAgain: true } });
    expect(lines.indexOf(restarted!)).toBeGreaterThan(lines.indexOf(disconnected!));
    expect(run.stderr).toContain('leave: staying (run 2)');
    expect(run.code).toBe(0);
  });

  it('a connection lost for good: the last line says so with the error and stderr tail, and the exit code is 3', async () => {
    const reg = registryFor(['--then=crash']);
    const run = await runCli(['--config', reg.config, '--data-dir', reg.dir, '--json', 'watch', 'leaver', '--call', 'leave', '--yes'], { timeoutMs: 120_000 });
    const lines = run.json();
    expect(lines[0]).toMatchObject({ event: 'disconnected', reconnecting: { attempt: 1 } });
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ event: 'disconnected', final: true, code: expect.any(String) });
    expect(String(last.stderrTail)).toContain('cannot start again');
    expect(run.code).toBe(3);
  });
});
