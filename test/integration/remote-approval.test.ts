/**
 * A remote server is approved before Harbor sends it its first request, as a stdio server is
 * before it is started (real Host, real Streamable HTTP fixture on 127.0.0.1): the app asks with
 * the URL and the header names (never values); the CLI refuses with the command that approves it;
 * `consent grant-launch` (servers.approveLaunch) records it; a new header name asks again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, waitFor, type TestHost } from '../helpers/host';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';
import { errorOf } from '../helpers/harbor-error';

let remote: RunningHttpServer;
beforeAll(async () => {
  remote = await startHttpFeatureServer();
});
afterAll(async () => {
  await remote.kill();
});

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('approving a remote server', () => {
  it('the app asks with the URL and header names; "this time" lasts the run; a new header name asks again; "always" is remembered', async () => {
    current = await createTestHost({}, { interactiveConsent: true, approveLaunches: false });
    const host = current.host;
    const asked: ConsentRequest[] = [];
    disposeAfterTest(host.events.onEvent('consent.request', (r) => asked.push(r)));
    await host.registry.add('remote', { url: remote.url, headers: { 'X-Team': 'blue-team-value' } });

    const first = host.servers.start('remote');
    await waitFor(() => asked.length === 1, 'the approval request');
    expect(asked[0]).toMatchObject({ kind: 'launch', server: 'remote', trusted: false, options: ['once', 'always', 'deny'], remote: { url: remote.url, headerNames: ['x-team'] } });
    expect(JSON.stringify(asked[0])).not.toContain('blue-team-value');
    host.consent.respond(asked[0]!.id, 'once');
    expect((await first).state.kind).toBe('ready');
    expect((await host.servers.restart('remote')).state.kind).toBe('ready');
    expect(asked).toHaveLength(1);

    const changed = host.registry.update('remote', { url: remote.url, headers: { 'X-Team': 'blue-team-value', Cookie: 'c' } });
    await waitFor(() => asked.length === 2, 'a request for the new header');
    expect(asked[1]!.remote).toEqual({ url: remote.url, headerNames: ['cookie', 'x-team'] });
    host.consent.respond(asked[1]!.id, 'always');
    await changed;
    await waitFor(() => host.servers.get('remote').state.kind === 'ready', 'the approved server');
    expect(host.consent.decisions().launches).toEqual([{ server: 'remote', commandLine: `${remote.url} with headers cookie, x-team`, createdAt: expect.any(Number) }]);
  });

  it('the CLI refuses with the command that approves it; approving records exactly the URL and header names', async () => {
    current = await createTestHost({}, { approveLaunches: false });
    const host = current.host;
    await host.registry.add('remote', { url: remote.url, headers: { 'X-Team': 'blue' } });
    const refused = await errorOf(host.servers.connect('remote'));
    expect(refused.code).toBe('CONSENT_REQUIRED');
    expect(refused.message).toBe(`Connecting to "remote" sends requests to ${remote.url} with headers x-team. Approve it with --yes (this run) or harbor consent grant-launch remote, or mark the server "trusted": true.`);
    expect(host.servers.approveLaunch('remote')).toEqual({ server: 'remote', transport: 'http', target: remote.url, headerNames: ['x-team'] });
    expect((await host.servers.connect('remote')).state.kind).toBe('ready');
  });

  it('a trusted remote server is reached without asking, as a trusted stdio server is started', async () => {
    current = await createTestHost({}, { approveLaunches: false });
    await current.host.registry.add('remote', { url: remote.url, trusted: true });
    expect((await current.host.servers.connect('remote')).state.kind).toBe('ready');
  });
});
