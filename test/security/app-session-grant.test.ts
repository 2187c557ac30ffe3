/**
 * #31 item 7: "Allow this App to use SERVER's tools for this session". The grant an App's consent
 * question offers covers that App alone — its server as configured (identity) and its `ui://`
 * resource — only the tools of that server the App may call at all, only definitions unchanged
 * since, and only for this run of Harbor. Attacks: another App of the same server, the same App
 * resource served by another server, the model, code mode and the person's own calls, a model-only
 * tool, a tool changed after the grant (a rug pull). Real Host in browser mode (interactive
 * consent), real probe App server processes.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentChoice, ConsentRequest } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, waitFor, type TestHost } from '../helpers/host';

const PROBE = join(FIXTURES, 'apps/probe-app-server.mjs');

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

/** Answers each consent question with what `answer` says, and keeps every question. */
function answering(t: TestHost, answer: (request: ConsentRequest) => ConsentChoice): ConsentRequest[] {
  const seen: ConsentRequest[] = [];
  disposeAfterTest(
    t.host.events.onEvent('consent.request', (request) => {
      seen.push(request);
      t.host.consent.respond(request.id, answer(request));
    }),
  );
  return seen;
}

/** A Host with the probe App server (and others), where the App of `probe` for show_probe got the session grant. */
async function granted(servers: Record<string, { command: string; args: string[] }> = {}) {
  const t = await createTestHost({ probe: { command: NODE, args: [PROBE] }, ...servers }, { mode: 'web', interactiveConsent: true });
  test = t;
  disposeAfterTest(t.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
  // The session grant for the first App's first question; Deny for everything else (every later question is one the grant did not answer).
  const first = { instanceId: '' };
  const asked = answering(t, (r) => (r.requester?.kind === 'app' && r.requester.instanceId === first.instanceId && r.options.includes('app-session') ? 'app-session' : 'deny'));
  const app = await t.host.apps.open({ server: 'probe', tool: 'show_probe' });
  first.instanceId = app.instanceId;
  await t.host.apps.callTool(app.instanceId, 'app_only', {});
  expect(asked).toHaveLength(1);
  expect(asked[0]!.options).toContain('app-session');
  // Covered now: the App asks nothing more.
  await t.host.apps.callTool(app.instanceId, 'client_capabilities', {});
  expect(asked).toHaveLength(1);
  // From now on every question is denied.
  first.instanceId = '';
  return { t, asked, app };
}

describe('the App session grant covers that App and nothing else', () => {
  it('another App of the same server (another ui:// resource) is asked, and denied', async () => {
    const { t, asked } = await granted();
    const listed = await t.host.apps.open({ server: 'probe', tool: 'show_listed' });
    await expect(t.host.apps.callTool(listed.instanceId, 'app_only', {})).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    expect(asked).toHaveLength(2);
    expect(asked[1]!.requester).toMatchObject({ kind: 'app', server: 'probe', uri: 'ui://probe/listed.html' });
  });

  it('the same App resource served by another server is asked, and denied', async () => {
    const { t, asked } = await granted({ other: { command: NODE, args: [PROBE, '--name', 'other-probe'] } });
    const twin = await t.host.apps.open({ server: 'other', tool: 'show_probe' });
    await expect(t.host.apps.callTool(twin.instanceId, 'app_only', {})).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    expect(asked.at(-1)!.requester).toMatchObject({ kind: 'app', server: 'other', uri: 'ui://probe/app.html' });
  });

  it('the model, code mode and the person are each asked for a tool the App may now call', async () => {
    const { t, asked } = await granted();
    for (const requester of [{ kind: 'model', conversationId: 'c1' }, { kind: 'code', conversationId: 'c1' }, { kind: 'person' }] as const) {
      const before = asked.length;
      await expect(
        t.host.calls.callTool('probe', 'client_capabilities', {}, { consent: { requester, ...('conversationId' in requester ? { conversationId: requester.conversationId } : {}) } }),
      ).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
      expect(asked.length).toBe(before + 1);
      // Never offered to anyone but an App.
      expect(asked.at(-1)!.options).not.toContain('app-session');
    }
  });

  it('a tool the server offers to the model only stays out of the App’s reach', async () => {
    const { t, asked } = await granted();
    const app = await t.host.apps.open({ server: 'probe', tool: 'show_probe' });
    await expect(t.host.apps.callTool(app.instanceId, 'model_only', {})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(asked).toHaveLength(1);
  });

  it('revoking the server’s approvals (or the tool’s) ends what the grant covers', async () => {
    const { t, asked, app } = await granted();
    t.host.consent.revoke('probe', 'client_capabilities');
    await expect(t.host.apps.callTool(app.instanceId, 'client_capabilities', {})).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    await t.host.apps.callTool(app.instanceId, 'app_only', {});
    expect(asked).toHaveLength(2);
    t.host.consent.revoke('probe');
    await expect(t.host.apps.callTool(app.instanceId, 'app_only', {})).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    expect(asked).toHaveLength(3);
  });

  it('an answer naming the session grant is refused where it was not offered', async () => {
    const t = await createTestHost({ probe: { command: NODE, args: [PROBE] } }, { mode: 'web', interactiveConsent: true });
    test = t;
    const asked: ConsentRequest[] = [];
    disposeAfterTest(t.host.events.onEvent('consent.request', (r) => asked.push(r)));
    const call = t.host.calls.callTool('probe', 'client_capabilities', {}, { consent: { requester: { kind: 'model', conversationId: 'c1' }, conversationId: 'c1' } });
    call.catch(() => undefined); // awaited below
    await waitFor(() => asked.length === 1, 'the model’s call to ask');
    expect(t.host.consent.respond(asked[0]!.id, 'app-session')).toBe(false);
    expect(t.host.consent.respond(asked[0]!.id, 'deny')).toBe(true);
    await expect(call).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
  });

  it('a tool whose definition changed after the grant asks again, with the diff', async () => {
    const t = await createTestHost({ shifty: { command: NODE, args: [PROBE, '--legacy', '--name', 'shifty'] } }, { mode: 'web', interactiveConsent: true });
    test = t;
    disposeAfterTest(t.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
    // The grant first; the changed tool's question is denied (it asks: that is what is proven).
    const asked = answering(t, (r) => (r.stale === undefined && r.options.includes('app-session') ? 'app-session' : 'deny'));
    const app = await t.host.apps.open({ server: 'shifty', tool: 'show_probe' });
    await t.host.apps.callTool(app.instanceId, 'client_capabilities', {});
    await t.host.apps.callTool(app.instanceId, 'app_only', {});
    expect(asked).toHaveLength(1);
    // The server changes app_only's description; the App calls it again.
    await t.call('shifty', 'reword_app_only', {});
    await waitFor(async () => (await t.host.calls.catalog('shifty')).tools.find((tool) => tool.name === 'app_only')?.description?.includes('id_rsa') === true, 'the reworded app_only in the catalog');
    await expect(t.host.apps.callTool(app.instanceId, 'app_only', {})).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    expect(asked).toHaveLength(2);
    expect(asked[1]!.stale?.changed).toEqual(['description']);
    // The unchanged tool is still covered.
    await t.host.apps.callTool(app.instanceId, 'client_capabilities', {});
    expect(asked).toHaveLength(2);
  });
});
