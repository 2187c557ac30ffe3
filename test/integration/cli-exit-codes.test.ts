/**
 * The CLI's exit codes as README documents them, from the built CLI over real servers: 1 the
 * server answered with an error, 2 a mistake in the command, 3 a server not reached, 4 a decision
 * still missing.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FEATURE_SERVER, NODE } from '../helpers/host';

const registry = tempRegistry({ feature: { command: NODE, args: [FEATURE_SERVER] } });
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

  it('consent grant-launch on a remote server says it approved connecting, and it did: the approval is recorded and used', async () => {
    // Added after this data folder's first run (as an import would add it): not carried over as approved.
    const later = tempRegistry({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    try {
      const flags = ['--config', later.config, '--data-dir', later.dir];
      const stdio = await runCli([...flags, 'consent', 'grant-launch', 'feature']);
      expect(stdio.stdout).toMatch(/^Approved launching "feature": /);
      writeFileSync(later.config, JSON.stringify({ mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER] }, remote: { url: 'http://127.0.0.1:9/mcp' } } }));
      const waiting = await runCli([...flags, '--json', 'servers']);
      expect(waiting.json()).toContainEqual(expect.objectContaining({ name: 'remote', error: expect.objectContaining({ code: 'CONSENT_REQUIRED' }) }));
      expect(waiting.code).toBe(4);

      const run = await runCli([...flags, 'consent', 'grant-launch', 'remote']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('Approved connecting to "remote": http://127.0.0.1:9/mcp\n');
      const list = await runCli([...flags, '--json', 'consent', 'list']);
      expect(list.json<{ launches: unknown[] }>()[0]!.launches).toContainEqual(expect.objectContaining({ server: 'remote', commandLine: 'http://127.0.0.1:9/mcp' }));
      // Approved for real: now the only failure is that nothing listens there (3), not a missing decision.
      const reached = await runCli([...flags, '--json', 'servers']);
      expect(reached.json()).toContainEqual(expect.objectContaining({ name: 'remote', error: expect.objectContaining({ code: 'CONNECT_FAILED' }) }));
      expect(reached.code).toBe(3);
    } finally {
      later.remove();
    }
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
