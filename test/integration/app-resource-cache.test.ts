/**
 * An app's `ui://` resource is read from its server once and then served from the Host's cache,
 * until the server says its resources changed: counted on the wire (the Host's traffic log holds
 * every message it sent the real fixture server).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FIXTURES, NODE, waitFor, type TestHost } from '../helpers/host';

const PROBE = join(FIXTURES, 'apps/probe-app-server.mjs');

let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

function attach(t: TestHost): void {
  disposeAfterTest(t.host.apps.attachSandbox({ urlFor: (id) => `test-sandbox://apps/${id}` }));
}

/** How many resources/read requests for `uri` the Host sent `server`. */
function readsOnTheWire(t: TestHost, server: string, uri: string): number {
  return t.host.traffic.list({ server }).filter((e) => e.direction === 'out' && e.method === 'resources/read' && e.text.includes(JSON.stringify(uri))).length;
}

describe('the app resource cache', () => {
  it('shows an app a second time without reading its resource again', async () => {
    test = await createTestHost({ probe: { command: NODE, args: [PROBE] } });
    attach(test);
    const first = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    const second = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
    expect(second.html).toBe(first.html);
    expect(second.instanceId).not.toBe(first.instanceId);
    expect(readsOnTheWire(test, 'probe', 'ui://probe/app.html')).toBe(1);
    // An app reading a resource itself still reaches the server: the cache serves showing apps only.
    await test.host.apps.readResource(second.instanceId, 'ui://probe/app.html');
    expect(readsOnTheWire(test, 'probe', 'ui://probe/app.html')).toBe(2);
  });

  for (const announce of ['updated', 'list_changed'] as const) {
    it(`reads the resource again once the server says it changed (resources/${announce})`, async () => {
      test = await createTestHost({ probe: { command: NODE, args: [PROBE, '--legacy'] } });
      attach(test);
      const first = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
      expect(first.html).toContain('<!-- version 1 -->');
      let heard = false;
      disposeAfterTest(
        test.host.events.onEvent('servers.changed', (c) => {
          if (c.name !== 'probe') return;
          heard ||= announce === 'updated' ? c.reason === 'resourceUpdated' && c.uri === 'ui://probe/app.html' : c.reason === 'catalog' && c.changed?.includes('resources') === true;
        }),
      );
      await test.call('probe', 'touch_app', { announce });
      await waitFor(() => heard, `the server's resources/${announce}`);
      const second = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
      expect(second.html).toContain('<!-- version 2 -->');
      expect(readsOnTheWire(test, 'probe', 'ui://probe/app.html')).toBe(2);
      const third = await test.host.apps.open({ server: 'probe', tool: 'show_probe' });
      expect(third.html).toBe(second.html);
      expect(readsOnTheWire(test, 'probe', 'ui://probe/app.html')).toBe(2);
    });
  }
});
