/**
 * Findings 10 and 15 (Host side): an app's requests cannot pile up consent questions, and they end
 * with the app. A real Host in browser mode (interactive consent) and the real probe App server:
 * the app asks for the same tool again and again while the first call waits for the person, then
 * its card closes while the question is still on screen.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, waitFor, type TestHost } from '../helpers/host';

const PROBE = join(FIXTURES, 'apps/probe-app-server.mjs');

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

async function openProbe(): Promise<{ t: TestHost; id: string; asked: ConsentRequest[]; resolved: string[] }> {
  const t = await createTestHost({ probe: { command: NODE, args: [PROBE] } }, { mode: 'web', interactiveConsent: true });
  test = t;
  disposeAfterTest(t.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
  const asked: ConsentRequest[] = [];
  const resolved: string[] = [];
  disposeAfterTest(t.host.events.onEvent('consent.request', (request) => asked.push(request)));
  disposeAfterTest(t.host.events.onEvent('consent.resolved', ({ id }) => resolved.push(id)));
  const view = await t.host.apps.open({ server: 'probe', tool: 'show_probe' });
  return { t, id: view.instanceId, asked, resolved };
}

describe('an app’s requests on the Host', () => {
  it('one call per app and tool waits for the person; the same tool asked again meanwhile is refused at once', async () => {
    const { t, id, asked } = await openProbe();
    const first = t.host.apps.callTool(id, 'app_only', {});
    first.catch(() => undefined); // settled below (the app is closed at the end)
    await waitFor(() => asked.length === 1, 'the first call to ask the person');
    const again = await Promise.allSettled(Array.from({ length: 500 }, () => t.host.apps.callTool(id, 'app_only', {})));
    expect(again.every((r) => r.status === 'rejected')).toBe(true);
    expect((again[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/already waiting/) });
    expect(asked).toHaveLength(1);
    expect(t.host.consent.pendingRequests()).toHaveLength(1);
    t.host.apps.close(id);
    await expect(first).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('a closed app’s consent question ends with it: the dialog is taken down and the call never runs', async () => {
    const { t, id, asked, resolved } = await openProbe();
    const call = t.host.apps.callTool(id, 'app_only', {});
    call.catch(() => undefined); // awaited below
    await waitFor(() => asked.length === 1, 'the app’s call to ask the person');
    expect(t.host.apps.close(id)).toBe(true);
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', message: expect.stringMatching(/closed/) });
    expect(resolved).toEqual([asked[0]!.id]);
    expect(t.host.consent.pendingRequests()).toEqual([]);
    // An answer that comes too late does nothing.
    expect(t.host.consent.respond(asked[0]!.id, 'once')).toBe(false);
  });
});
