/**
 * The CLI's exit codes as README documents them, from the built CLI over real servers: 1 the
 * server answered with an error, 2 a mistake in the command, 4 a decision still missing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FEATURE_SERVER, NODE } from '../helpers/host';

const registry = tempRegistry({
  feature: { command: NODE, args: [FEATURE_SERVER] },
  remote: { url: 'http://127.0.0.1:9/mcp' },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

describe('exit codes follow their documented meaning', () => {
  it('servers: a launch waiting for approval is a missing decision (4), not a connection failure', async () => {
    const only = tempRegistry({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    try {
      const run = await runCli(['--config', only.config, '--data-dir', only.dir, '--json', 'servers']);
      expect(run.json()[0]).toMatchObject({ name: 'feature', state: 'error', error: { code: 'CONSENT_REQUIRED' } });
      expect(run.code).toBe(4);
    } finally {
      only.remove();
    }
  });

  it('call of a tool the server does not have: a usage error (2) naming the tools it has', async () => {
    const run = await runCli([...g, 'call', 'feature', 'no_such_tool', '--yes']);
    expect(run.stderr).toMatch(/"feature" has no tool named "no_such_tool"\. Its tools: echo, add/);
    expect(run.code).toBe(2);
  });

  it("read and prompt answered with the server's JSON-RPC error: 1, like a tool's isError", async () => {
    const read = await runCli([...g, '--json', 'read', 'feature', 'fixture://no-such-resource', '--yes']);
    expect(read.json()[0]).toMatchObject({ error: { code: 'PROTOCOL_ERROR' } });
    expect(read.code).toBe(1);
    const prompt = await runCli([...g, 'prompt', 'feature', 'no_such_prompt', '--yes']);
    expect(prompt.stderr).toMatch(/returned an error while getting prompt no_such_prompt/);
    expect(prompt.code).toBe(1);
  });

  it('consent grant-launch on a remote server says it needs no launch approval and records nothing', async () => {
    const run = await runCli([...g, 'consent', 'grant-launch', 'remote']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/"remote" needs no launch approval \(a remote server at http:\/\/127\.0\.0\.1:9\/mcp/);
    expect(run.stdout).not.toMatch(/Approved/);
    const list = await runCli([...g, '--json', 'consent', 'list']);
    expect(list.json<{ launches: unknown[] }>()[0]!.launches).toEqual([]);
    const stdio = await runCli([...g, 'consent', 'grant-launch', 'feature']);
    expect(stdio.stdout).toMatch(/^Approved launching "feature": /);
  });

  it('a registry server with both "command" and "url": harbor info lists the problem (2); the server does not start (2); the others do', async () => {
    const mixed = tempRegistry({ feature: { command: NODE, args: [FEATURE_SERVER], trusted: true }, both: { command: NODE, args: [FEATURE_SERVER], url: 'http://127.0.0.1:9/mcp' } });
    try {
      const flags = ['--config', mixed.config, '--data-dir', mixed.dir];
      const info = await runCli([...flags, 'info']);
      expect(info.code).toBe(2);
      expect(info.stdout).toMatch(/problems:\n {2}mcpServers\.both: has both "command" and "url": Harbor would run the command and ignore the URL/);
      const servers = await runCli([...flags, '--json', 'servers']);
      expect(servers.json()).toEqual([
        expect.objectContaining({ name: 'feature', state: 'ready' }),
        expect.objectContaining({ name: 'both', state: 'error', error: expect.objectContaining({ code: 'CONFIG_INVALID' }) }),
      ]);
      expect(servers.code).toBe(2);
    } finally {
      mixed.remove();
    }
  });
});
