/** main/shell/shell-handlers.ts: shell commands over the Host's, through the real dispatcher. */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import { AddServerConsent } from '../../main/shell/add-server-consent';
import { withShellCommands } from '../../main/shell/shell-handlers';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, NODE, waitFor, type TestHost } from '../helpers/host';

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

describe('withShellCommands', () => {
  it('browser mode (no shell) answers the update commands as unsupported', async () => {
    const test = await createTestHost({});
    hosts.push(test);
    const dispatch = createDispatcher(bindCommands(test.host));
    expect(await dispatch('app.updateStatus', {})).toMatchObject({ ok: true, value: { state: 'unsupported', autoUpdate: false } });
    expect(await dispatch('app.installUpdate', {})).toEqual({ ok: true, value: { restarting: false } });
  });

  it('the shell\'s consent requests are listed and answered through consent.pending / consent.respond', async () => {
    const test = await createTestHost({}, { approveLaunches: false });
    hosts.push(test);
    const { host } = test;
    const links = disposeAfterTest(
      new AddServerConsent({
        events: host.shell,
        serverExists: () => false,
        addServer: (name, config) => host.registry.add(name, config),
        approveLaunch: () => undefined,
        notify: () => undefined,
      }),
    );
    const updates = { handlers: () => ({
      'app.updateStatus': async () => ({ state: 'idle' as const, currentVersion: '9', autoUpdate: true }),
      'app.checkForUpdates': async () => ({ state: 'checking' as const, currentVersion: '9', autoUpdate: true }),
      'app.installUpdate': async () => ({ restarting: true }),
      'app.setAutoUpdate': async ({ enabled }: { enabled: boolean }) => ({ state: 'idle' as const, currentVersion: '9', autoUpdate: enabled }),
    }) };
    const dispatch = createDispatcher(withShellCommands(bindCommands(host), { links, updates, door: host.shell }));
    expect(await dispatch('app.setAutoUpdate', { enabled: false })).toMatchObject({ ok: true, value: { autoUpdate: false } });
    expect(await dispatch('app.setAutoUpdate', { enabled: 'no' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });

    const config = Buffer.from(JSON.stringify({ name: 'linked', config: { command: NODE, args: ['-e', '0'] } })).toString('base64url');
    const outcome = links.handle(`harbor://add-server?config=${config}`);
    let pending: ConsentRequest[] = [];
    await waitFor(() => links.pendingRequests().length === 1, 'the link request');
    const listed = await dispatch('consent.pending', {});
    expect(listed.ok).toBe(true);
    if (listed.ok) pending = listed.value as ConsentRequest[];
    expect(pending.map((r) => r.server)).toEqual(['linked']);
    // An id the Host's gate owns is still answered by the gate (here: unknown, refused).
    expect(await dispatch('consent.respond', { id: 'gate-id', decision: 'deny' })).toEqual({ ok: true, value: { accepted: false } });
    expect(await dispatch('consent.respond', { id: pending[0]!.id, decision: 'once' })).toEqual({ ok: true, value: { accepted: true } });
    expect(await outcome).toBe('added');
    expect(host.servers.list().map((s) => s.name)).toContain('linked');
  });
});
