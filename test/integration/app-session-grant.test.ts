/**
 * #31 item 7, on a real Host (browser mode: the person is asked) with the real probe App server:
 * the person runs a tool by hand and approves it; the App its result shows calls that same tool
 * itself. Its question names the App (its server, its ui:// resource, the tool whose result it
 * shows) and offers "Allow this App to use probe's tools for this session"; chosen, the App's next
 * calls — and the same App shown again — run without asking, each in the App trail as allowed.
 * The grant lives in memory only: nothing is written to consent.db, and the next Harbor asks again.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentChoice, ConsentRequest } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, openHostOn, type TestHost } from '../helpers/host';

const PROBE = join(FIXTURES, 'apps/probe-app-server.mjs');

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('an App shown for a tool run by hand', () => {
  it('asks once, naming the App, offers the session grant, and then runs its calls without asking until Harbor quits', async () => {
    const t = await createTestHost({ probe: { command: NODE, args: [PROBE] } }, { mode: 'web', interactiveConsent: true });
    test = t;
    disposeAfterTest(t.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
    const asked: ConsentRequest[] = [];
    // The person allows their own run once; the App's question gets the session grant (Deny if it is not offered).
    disposeAfterTest(
      t.host.events.onEvent('consent.request', (request) => {
        asked.push(request);
        const answer: ConsentChoice = request.requester?.kind === 'person' ? 'once' : request.options.includes('app-session') ? 'app-session' : 'deny';
        t.host.consent.respond(request.id, answer);
      }),
    );

    // By hand: the person's question, without the App's choice.
    await t.host.calls.callTool('probe', 'show_probe', {});
    expect(asked).toHaveLength(1);
    expect(asked[0]!.requester).toEqual({ kind: 'person' });
    expect(asked[0]!.options).not.toContain('app-session');

    // The App of that result calls the same tool itself: asked, as the App, with the session choice.
    const app = await t.host.apps.open({ server: 'probe', tool: 'show_probe' });
    await t.host.apps.callTool(app.instanceId, 'show_probe', {});
    expect(asked).toHaveLength(2);
    expect(asked[1]!.requester).toEqual({ kind: 'app', server: 'probe', tool: 'show_probe', uri: 'ui://probe/app.html', instanceId: app.instanceId });
    expect(asked[1]!.options).toEqual(expect.arrayContaining(['once', 'always', 'app-session', 'deny']));

    // Its next calls, of that tool and of the others it may call, ask nothing.
    await t.host.apps.callTool(app.instanceId, 'show_probe', {});
    await t.host.apps.callTool(app.instanceId, 'app_only', {});
    await t.host.apps.callTool(app.instanceId, 'client_capabilities', {});
    // The same App shown again (another run's result) is the same App.
    const again = await t.host.apps.open({ server: 'probe', tool: 'show_probe' });
    await t.host.apps.callTool(again.instanceId, 'app_only', {});
    expect(asked).toHaveLength(2);
    const calls = t.host.apps.activity().filter((e) => e.method === 'tools/call');
    expect(calls.map((e) => `${e.detail} ${e.outcome}`)).toEqual(['show_probe allowed', 'show_probe allowed', 'app_only allowed', 'client_capabilities allowed', 'app_only allowed']);

    // In memory only: nothing recorded, and another Harbor on the same folder asks again.
    expect(t.host.consent.decisions().approvals).toEqual([]);
    const next = await openHostOn(t.dir, { mode: 'web', interactiveConsent: true, approveLaunches: true });
    disposeAfterTest(next);
    disposeAfterTest(next.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
    const askedNext: ConsentRequest[] = [];
    disposeAfterTest(
      next.events.onEvent('consent.request', (request) => {
        askedNext.push(request);
        next.consent.respond(request.id, 'deny');
      }),
    );
    const reopened = await next.apps.open({ server: 'probe', tool: 'show_probe' });
    await expect(next.apps.callTool(reopened.instanceId, 'app_only', {})).rejects.toMatchObject({ code: 'CONSENT_DENIED' });
    expect(askedNext).toHaveLength(1);
  });
});
