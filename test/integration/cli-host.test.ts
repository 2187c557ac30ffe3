import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER, FEATURE_SERVER, NODE } from '../helpers/host';
import { runCli, tempRegistry } from '../helpers/cli';
import { startHttpFeatureServer } from '../helpers/http-server';

// The CLI is a contract other tests and users script against: exact JSON shapes and exit codes.
const registry = tempRegistry({
  feature: { command: NODE, args: [FEATURE_SERVER] },
  everything: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] },
  off: { command: NODE, args: [FEATURE_SERVER], enabled: false },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];

afterAll(() => registry.remove());

describe('harbor CLI over real servers', () => {
  it('servers --json prints one object per server with the documented fields', async () => {
    const run = await runCli([...g, '--json', 'servers', '--yes']);
    expect(run.code).toBe(0);
    const lines = run.json<Record<string, unknown>>();
    expect(lines.map((l) => l.name)).toEqual(['feature', 'everything', 'off']);
    expect(lines[0]).toMatchObject({
      name: 'feature',
      transport: 'stdio',
      state: 'ready',
      era: 'modern',
      protocolVersion: '2026-07-28',
      serverInfo: { name: 'feature-fixture', version: '1.0.0' },
      resources: 2,
      prompts: 1,
    });
    expect(lines[1]).toMatchObject({ name: 'everything', state: 'ready', era: 'legacy', protocolVersion: '2025-11-25', tools: 18, resources: 7, prompts: 4 });
    expect(lines[2]).toMatchObject({ name: 'off', state: 'stopped' });
    // Nothing but JSON on stdout.
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('tools --json lists MCP tool objects plus their server', async () => {
    const run = await runCli([...g, 'tools', 'feature', '--json', '--yes']);
    expect(run.code).toBe(0);
    const [tools] = run.json<Array<{ name: string; server: string; inputSchema: unknown }>>();
    expect(tools?.find((t) => t.name === 'add')).toMatchObject({ server: 'feature', inputSchema: { type: 'object' } });
  });

  it('call prints the result; --json gives {content, structuredContent, isError}', async () => {
    const run = await runCli([...g, '--json', 'call', 'feature', 'add', '--args', '{"a":2,"b":3}', '--yes']);
    expect(run.code).toBe(0);
    expect(run.json()[0]).toEqual({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 }, isError: false });
    const human = await runCli([...g, 'call', 'feature', 'echo', '--args', '{"text":"héllo"}', '--yes']);
    expect(human.stdout.trim()).toBe('héllo');
  });

  it('exit codes: 1 for isError, 2 for usage, 3 for connection, 4 for consent', async () => {
    expect((await runCli([...g, 'call', 'feature', 'fail', '--yes'])).code).toBe(1);
    const badJson = await runCli([...g, 'call', 'feature', 'add', '--args', '{oops', '--yes']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/--args is not valid JSON/);
    expect((await runCli([...g, 'call', 'nosuch', 'x', '--yes'])).code).toBe(2);
    expect((await runCli([...g, 'call', 'feature'])).code).toBe(2);
    const consent = await runCli([...g, '--json', 'call', 'feature', 'echo', '--args', '{"text":"x"}']);
    expect(consent.code).toBe(4);
    expect(consent.json()[0]).toMatchObject({ error: { code: 'CONSENT_REQUIRED' } });
    const broken = tempRegistry({ gone: { command: 'harbor-no-such-binary' } });
    try {
      const run = await runCli(['--config', broken.config, '--data-dir', broken.dir, 'servers', '--yes']);
      expect(run.code).toBe(3);
      expect(run.stdout).toMatch(/SPAWN_FAILED/);
    } finally {
      broken.remove();
    }
  });

  it('--answer accepts a form elicitation; without it the server gets a real decline', async () => {
    const accepted = await runCli([...g, 'call', 'feature', 'ask_name', '--yes', '--answer', '{"name":"Ada"}']);
    expect(accepted.stdout).toMatch(/Hello Ada/);
    expect(accepted.stderr).toMatch(/asks:/);
    const declined = await runCli([...g, 'call', 'feature', 'ask_name', '--yes']);
    expect(declined.stdout.trim()).toBe('declined');
  });

  it('--timeout expires without progress and exits non-zero with TIMEOUT', async () => {
    const run = await runCli([...g, '--json', 'call', 'feature', 'slow', '--args', '{"steps":1,"delayMs":5000}', '--yes', '--timeout', '300']);
    expect(run.code).not.toBe(0);
    expect(run.json()[0]).toMatchObject({ error: { code: 'TIMEOUT' } });
  });

  it('read and prompt', async () => {
    const read = await runCli([...g, 'read', 'feature', 'fixture://hello', '--yes']);
    expect(read.code).toBe(0);
    expect(read.stdout.length).toBeGreaterThan(0);
    const prompt = await runCli([...g, 'prompt', 'feature', 'greet', '--args', '{"name":"Lin"}', '--yes']);
    expect(prompt.stdout).toMatch(/Lin/);
  });

  it('watch prints each change as a JSON line', async () => {
    // One HTTP server shared by two CLI processes: `watch` holds the subscription while a second
    // process changes a tool's description through the same server.
    const server = await startHttpFeatureServer();
    const remote = tempRegistry({ remote: { url: server.url } });
    try {
      const rg = ['--config', remote.config, '--data-dir', remote.dir];
      // A fresh data folder approves no remote server: the person approves this one first.
      expect((await runCli([...rg, 'consent', 'grant-launch', 'remote'])).code).toBe(0);
      const lines: string[] = [];
      let ready!: () => void;
      const watchingStarted = new Promise<void>((r) => (ready = r));
      // Ctrl-C once the change is printed: a fixed window (8 s) ran out under load before the
      // second process had made the change. If the change never comes, the window fails the test.
      const watching = runCli([...rg, '--json', 'watch', 'remote', '--seconds', '50'], {
        onStdoutLine: (l) => lines.push(l),
        interruptWhen: (l) => l.includes('"toolsChanged"'),
        onStderrLine: (l) => {
          if (l.startsWith('watching')) ready();
        },
      });
      await watchingStarted;
      const change = await runCli([...rg, 'call', 'remote', 'mutate', '--args', '{"description":"changed"}', '--yes']);
      expect(change.code).toBe(0);
      const run = await watching;
      expect(run.code).toBe(0);
      expect(lines.map((l) => JSON.parse(l) as unknown)).toContainEqual({ event: 'toolsChanged' });
    } finally {
      remote.remove();
      await server.kill('SIGKILL');
    }
  });
});
