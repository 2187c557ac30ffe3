/**
 * main/shell/add-server-consent.ts over a real Host (temp registry, real consent store, a real
 * stdio server): a harbor:// link is only ever a launch-consent request showing exactly what runs;
 * the server is added on approval only, and the approval covers its launch.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest, EventName } from '../../preload/contract';
import { AddServerConsent, describeLinkLaunch, type AddServerConsentDeps } from '../../main/shell/add-server-consent';
import { parseDeepLink } from '../../main/shell/deep-link';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FEATURE_SERVER, NODE, waitFor, type TestHost } from '../helpers/host';
import { startHttpFeatureServer } from '../helpers/http-server';

const link = (name: string, config: Record<string, unknown>) =>
  `harbor://add-server?config=${Buffer.from(JSON.stringify({ name, config })).toString('base64url')}`;
const featureConfig = { command: NODE, args: [FEATURE_SERVER], env: { GREETING: 'hello world' } };

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

/** A Host whose gate is not interactive (like the CLI): an unapproved launch fails with CONSENT_REQUIRED. */
async function setup(overrides: Partial<AddServerConsentDeps> = {}) {
  const test = await createTestHost({ existing: { command: NODE, args: [FEATURE_SERVER] } }, { approveLaunches: false });
  hosts.push(test);
  const { host } = test;
  const requests: ConsentRequest[] = [];
  const events: Array<{ event: EventName; payload: unknown }> = [];
  disposeAfterTest(
    host.events.on((event, payload) => {
      events.push({ event, payload });
      if (event === 'consent.request') requests.push(payload as ConsentRequest);
    }),
  );
  const notices: string[] = [];
  const consent = disposeAfterTest(new AddServerConsent({
    events: host.shell,
    serverExists: (name) => host.servers.list().some((s) => s.name === name),
    addServer: (name, config) => host.registry.add(name, config),
    approveLaunch: (name, choice) => (choice === 'always' ? host.servers.approveLaunch(name) : host.consent.approveLaunchesForSession(name)),
    notify: (title, message) => notices.push(`${title}: ${message}`),
    ...overrides,
  }));
  const names = () => host.servers.list().map((s) => s.name);
  return { host, consent, requests, events, notices, names };
}

describe('describeLinkLaunch', () => {
  it('shows the environment with its values, then the exact command line; a remote shows its URL', () => {
    const parsed = parseDeepLink(link('gh', { command: 'npx', args: ['-y', 'server github'], env: { A: '1', B: 'two words' }, cwd: '/tmp' }));
    expect(describeLinkLaunch(parsed)).toEqual({ commandLine: 'A=1 B="two words" npx -y "server github"', envNames: ['A', 'B'], cwd: '/tmp' });
    expect(describeLinkLaunch(parseDeepLink(link('r', { url: 'https://mcp.example.com/mcp' })))).toEqual({ commandLine: 'https://mcp.example.com/mcp', envNames: [] });
    expect(describeLinkLaunch(parseDeepLink(link('r', { url: 'https://mcp.example.com/sse', transport: 'sse' }))).commandLine).toBe('https://mcp.example.com/sse (HTTP+SSE)');
  });
});

describe('AddServerConsent', () => {
  it('asks with a launch-consent request; "always" adds the server and approves exactly that launch', async () => {
    const { host, consent, requests, events, names } = await setup();
    const outcome = consent.handle(link('feature', featureConfig));
    await waitFor(() => requests.length === 1, 'the consent request');
    const request = requests[0]!;
    expect(request).toMatchObject({ kind: 'launch', server: 'feature', trusted: false, options: ['once', 'always', 'deny'] });
    expect(request.launch?.commandLine).toBe(`GREETING="hello world" ${NODE} ${FEATURE_SERVER}`);
    expect(request.launch?.envNames).toEqual(['GREETING']);
    expect(request.deadline).toBeGreaterThan(Date.now());
    // Nothing is added while the person has not answered; the request is listed as pending.
    expect(names()).not.toContain('feature');
    expect(consent.pendingRequests().map((r) => r.id)).toEqual([request.id]);
    expect(consent.owns(request.id)).toBe(true);

    expect(consent.respond(request.id, 'always')).toBe(true);
    expect(await outcome).toBe('added');
    expect(names()).toContain('feature');
    expect(events.some((e) => e.event === 'consent.resolved' && (e.payload as { decision: string }).decision === 'always')).toBe(true);
    const approved = host.consent.decisions().launches.find((l) => l.server === 'feature');
    expect(approved?.commandLine).toBe(`${NODE} ${FEATURE_SERVER}`);
    // The approval covers the launch: a non-interactive gate lets it start without asking again.
    const started = await host.servers.start('feature');
    expect(started.state.kind).toBe('ready');
    expect((await host.registry.view()).servers.find((s) => s.name === 'feature')?.config).toEqual(featureConfig);
  });

  it('a remote link asks to approve its address; "always" records it, and the server is reached without asking again', async () => {
    const remote = await startHttpFeatureServer();
    try {
      const { host, consent, requests } = await setup();
      const outcome = consent.handle(link('remote', { url: remote.url }));
      await waitFor(() => requests.length === 1, 'the consent request');
      expect(requests[0]).toMatchObject({ kind: 'launch', server: 'remote', remote: { url: remote.url, headerNames: [] }, launch: { commandLine: remote.url } });
      consent.respond(requests[0]!.id, 'always');
      expect(await outcome).toBe('added');
      expect(host.consent.decisions().launches).toEqual([{ server: 'remote', commandLine: remote.url, createdAt: expect.any(Number) }]);
      // The gate here is not interactive: without the recorded approval this would be CONSENT_REQUIRED.
      expect((await host.servers.start('remote')).state.kind).toBe('ready');
      await host.servers.stop('remote');
    } finally {
      await remote.kill();
    }
  });

  it('"once" adds it and approves its launch for this run only', async () => {
    const { host, consent, requests } = await setup();
    const outcome = consent.handle(link('feature', featureConfig));
    await waitFor(() => requests.length === 1, 'the consent request');
    consent.respond(requests[0]!.id, 'once');
    expect(await outcome).toBe('added');
    expect(host.consent.decisions().launches).toEqual([]);
    expect((await host.servers.start('feature')).state.kind).toBe('ready');
  });

  it('denial, or the deadline passing, adds nothing', async () => {
    const { consent, requests, names } = await setup({ timeoutMs: 100 });
    const denied = consent.handle(link('feature', featureConfig));
    await waitFor(() => requests.length === 1, 'the first request');
    consent.respond(requests[0]!.id, 'deny');
    expect(await denied).toBe('denied');
    expect(await consent.handle(link('feature', featureConfig))).toBe('denied'); // nobody answers: times out
    expect(requests).toHaveLength(2);
    expect(names()).toEqual(['existing']);
    expect(consent.pendingRequests()).toEqual([]);
  });

  it('the gate here refuses unapproved launches: the approvals above are what let the servers start', async () => {
    const { host } = await setup();
    expect((await host.servers.start('existing')).state).toMatchObject({ kind: 'error', code: 'CONSENT_REQUIRED' });
  });

  it('refuses a bad link or a taken name with a message, raising no request', async () => {
    // Each refusal on its own, not a burst (bursts: shell-link-refusals.test.ts).
    const { consent, requests, notices } = await setup({ refusalQuietMs: 0 });
    expect(await consent.handle('harbor://add-server?config=!!')).toBe('refused');
    expect(await consent.handle(link('existing', { command: 'npx' }))).toBe('refused');
    expect(await consent.handle(link('x', { command: 'npx', env: { NODE_OPTIONS: '--require /tmp/evil.js' } }))).toBe('refused');
    expect(requests).toEqual([]);
    expect(notices).toHaveLength(3);
    expect(notices[1]).toContain('A server named "existing" already exists');
    expect(notices[2]).toContain('changes which code runs');
  });

  it('one link at a time; answers that are unknown, not offered or late are ignored', async () => {
    const { consent, requests } = await setup();
    const first = consent.handle(link('feature', featureConfig));
    await waitFor(() => requests.length === 1, 'the request');
    expect(await consent.handle(link('other', featureConfig))).toBe('busy');
    expect(consent.respond('no-such-id', 'always')).toBe(false);
    expect(consent.respond(requests[0]!.id, 'conversation')).toBe(false);
    consent.dispose(); // the app quits: pending requests are denied
    expect(await first).toBe('denied');
    expect(consent.respond(requests[0]!.id, 'always')).toBe(false);
  });

  it('reports an add that fails after approval', async () => {
    const { consent, requests, notices } = await setup({
      addServer: async () => {
        throw Object.assign(new Error('disk full'), {});
      },
    });
    const outcome = consent.handle(link('feature', featureConfig));
    await waitFor(() => requests.length === 1, 'the request');
    consent.respond(requests[0]!.id, 'always');
    expect(await outcome).toBe('failed');
    expect(notices[0]).toContain('disk full');
  });
});
