import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';

// One HTTP server shared by many CLI processes, so a change made by one run is seen by the next.
let server: RunningHttpServer;
let registry: ReturnType<typeof tempRegistry>;
let g: string[];

beforeAll(async () => {
  server = await startHttpFeatureServer();
  registry = tempRegistry({ remote: { url: server.url } });
  g = ['--config', registry.config, '--data-dir', registry.dir];
  // A fresh data folder approves no remote server: the person approves this one first.
  expect((await runCli([...g, 'consent', 'grant-launch', 'remote'])).code).toBe(0);
});
afterAll(async () => {
  registry.remove();
  await server.kill('SIGKILL');
});

// Fourteen CLI runs in one story (each a fresh process that connects): ~10 s on a quiet machine, but
// 51 s was seen with five other files beside it on two loaded cores, so two minutes, not the default 30 s.
describe('harbor consent and call through the consent policy', { timeout: 120_000 }, () => {
  it('grant --always, rug pull → CONSENT_STALE with the changed fields, re-grant, revoke, grant once', async () => {
    const first = await runCli([...g, '--json', 'call', 'remote', 'echo', '--args', '{"text":"hi"}']);
    expect(first.code).toBe(4);
    expect(first.json()[0]).toMatchObject({ error: { code: 'CONSENT_REQUIRED' } });
    expect(first.stderr).toMatch(/needs your consent/);

    expect((await runCli([...g, 'consent', 'grant', 'remote', 'echo', '--always'])).code).toBe(0);
    const allowed = await runCli([...g, 'call', 'remote', 'echo', '--args', '{"text":"hi"}']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout.trim()).toBe('hi');

    expect((await runCli([...g, 'call', 'remote', 'mutate', '--args', '{"description":"Echo, and more"}', '--yes'])).code).toBe(0);
    const stale = await runCli([...g, '--json', 'call', 'remote', 'echo', '--args', '{"text":"hi"}']);
    expect(stale.code).toBe(4);
    expect(stale.json()[0]).toMatchObject({ error: { code: 'CONSENT_STALE', changed: ['description'] } });

    const list = await runCli([...g, '--json', 'consent', 'list']);
    const decisions = list.json<{ approvals: unknown[]; changes: Array<{ tool: string; changed: string[] }> }>()[0]!;
    expect(decisions.approvals).toMatchObject([{ server: 'remote', tool: 'echo', kind: 'always' }]);
    expect(decisions.changes).toMatchObject([{ tool: 'echo', changed: ['description'] }]);

    expect((await runCli([...g, 'consent', 'grant', 'remote', 'echo', '--always'])).code).toBe(0);
    expect((await runCli([...g, 'call', 'remote', 'echo', '--args', '{"text":"ok"}'])).code).toBe(0);

    const revoke = await runCli([...g, '--json', 'consent', 'revoke', 'remote', 'echo']);
    expect(revoke.json()[0]).toEqual({ removed: 1 });
    expect((await runCli([...g, 'call', 'remote', 'echo', '--args', '{"text":"x"}'])).code).toBe(4);

    expect((await runCli([...g, 'consent', 'grant', 'remote', 'echo'])).code).toBe(0);
    expect((await runCli([...g, 'call', 'remote', 'echo', '--args', '{"text":"once"}'])).code).toBe(0);
    expect((await runCli([...g, 'call', 'remote', 'echo', '--args', '{"text":"twice"}'])).code).toBe(4);
  });

  it('consent with a bad action is a usage error', async () => {
    const run = await runCli([...g, 'consent', 'bless', 'remote']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown consent action "bless"/);
  });
});
