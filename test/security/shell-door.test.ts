/**
 * One door in fact: the shell (and every other front door) hears a read-only event stream, and
 * what the shell itself raises — a harbor:// link's consent question, the updater's status —
 * leaves through the Host's exit like everything else, cleaned as EVENT_EXIT says.
 *
 * The attack: a web page opens harbor://add-server with a launch line that quotes a value the
 * person keeps in the keychain (a token it learned elsewhere, or one the person pasted). The
 * question is shown to the renderer (an event, and consent.pending after a reload): the value must
 * reach neither unmasked.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { AddServerConsent } from '../../main/shell/add-server-consent';
import { withShellCommands } from '../../main/shell/shell-handlers';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, NODE, waitFor, type TestHost } from '../helpers/host';

const hosts: TestHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

const noUpdates = {
  handlers: () => ({
    'app.updateStatus': async () => ({ state: 'idle' as const, currentVersion: '9', autoUpdate: true }),
    'app.checkForUpdates': async () => ({ state: 'idle' as const, currentVersion: '9', autoUpdate: true }),
    'app.installUpdate': async () => ({ restarting: false }),
    'app.setAutoUpdate': async ({ enabled }: { enabled: boolean }) => ({ state: 'idle' as const, currentVersion: '9', autoUpdate: enabled }),
  }),
};

describe('the shell reaches the Host through its doors only', () => {
  it('the event stream a front door holds cannot emit', async () => {
    const test = await createTestHost({});
    hosts.push(test);
    expect('emit' in test.host.events).toBe(false);
    expect((test.host.events as unknown as { emit?: unknown }).emit).toBeUndefined();
  });

  it("a link's consent question quoting a known secret leaves masked, as an event and in consent.pending", async () => {
    const secret = `sk-link-${randomBytes(12).toString('hex')}`;
    const test = await createTestHost({}, { approveLaunches: false, secrets: new MemorySecretStore() });
    hosts.push(test);
    const { host } = test;
    await host.secrets.set('known-token', secret);
    const heard: ConsentRequest[] = [];
    disposeAfterTest(host.events.onEvent('consent.request', (request) => heard.push(request)));
    const links = disposeAfterTest(
      new AddServerConsent({
        ask: (request, signal) => host.consent.ask(request, signal),
        serverExists: () => false,
        addServer: (name, config) => host.registry.add(name, config),
        approveLaunch: () => undefined,
        notify: () => undefined,
      }),
    );
    const dispatch = createDispatcher(withShellCommands(bindCommands(host), { updates: noUpdates }));
    const config = Buffer.from(JSON.stringify({ name: 'linked', config: { command: NODE, args: ['-e', '0', secret] } })).toString('base64url');
    const outcome = links.handle(`harbor://add-server?config=${config}`);
    await waitFor(() => heard.length === 1, 'the link question');
    expect(heard[0]!.launch?.commandLine).toContain('***');
    expect(JSON.stringify(heard)).not.toContain(secret);

    const listed = await dispatch('consent.pending', {});
    expect(listed.ok).toBe(true);
    const pending = listed.ok ? (listed.value as ConsentRequest[]) : [];
    expect(pending.map((r) => r.server)).toEqual(['linked']);
    expect(JSON.stringify(pending)).not.toContain(secret);
    // The answer still reaches the link's question.
    expect(await dispatch('consent.respond', { id: pending[0]!.id, decision: 'deny' })).toEqual({ ok: true, value: { accepted: true } });
    expect(await outcome).toBe('denied');
  });

  it("the updater's status goes out through the shell door", async () => {
    const test = await createTestHost({});
    hosts.push(test);
    const { host } = test;
    const heard: unknown[] = [];
    disposeAfterTest(host.events.onEvent('app.update', (status) => heard.push(status)));
    host.shell.emit('app.update', { state: 'checking', currentVersion: '1.0.0', autoUpdate: true });
    expect(heard).toEqual([{ state: 'checking', currentVersion: '1.0.0', autoUpdate: true }]);
  });
});
