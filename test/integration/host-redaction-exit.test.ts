/**
 * Everything that leaves the Host passes one exit: the summaries add/update/start/stop return and
 * the `servers.changed` events carry are masked like `servers.list`, whatever path made them.
 * The secret here sits in a server's launch line as a literal (the person pasted a token into
 * "args" that Harbor also keeps in the keychain), so the summary's `target` echoes it.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { NODE, createTestHost, type TestHost } from '../helpers/host';

let current: TestHost | undefined;

afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('the Host redacts at one exit', () => {
  it('masks a known secret in the summaries of add, update, start and stop, and in every servers.changed event', async () => {
    const secret = `sk-exit-${randomBytes(12).toString('hex')}`;
    current = await createTestHost({}, { secrets: new MemorySecretStore() });
    const { host } = current;
    // Set through the door: from now on the value is a known secret.
    await host.secrets.set('pasted-token', secret);
    const events: EventPayload<'servers.changed'>[] = [];
    disposeAfterTest(host.events.onEvent('servers.changed', (payload) => events.push(payload)));

    // A server that prints its argument (the secret) to stderr and exits: an error state too.
    const config = { command: NODE, args: ['-e', 'console.error("token " + process.argv[1]); process.exit(3)', secret] };
    const summaries = [
      await host.registry.add('leaky', config),
      await host.registry.update('leaky', { ...config, timeoutMs: 5_000 }),
      await host.servers.start('leaky'),
      await host.servers.stop('leaky'),
      await host.servers.restart('leaky'),
    ];

    for (const summary of summaries) {
      expect(summary.name).toBe('leaky');
      expect(JSON.stringify(summary)).not.toContain(secret);
    }
    expect(summaries[0]!.target).toContain('***');
    expect(events.some((e) => e.reason === 'config')).toBe(true);
    expect(events.some((e) => e.reason === 'state')).toBe(true);
    for (const event of events) expect(JSON.stringify(event)).not.toContain(secret);
    // The door's listing agrees with what add returned.
    expect(host.servers.get('leaky').target).toBe(summaries[0]!.target);
  });

  it('redacts an error thrown through any door, not only the calls', async () => {
    const secret = `sk-exit-${randomBytes(12).toString('hex')}`;
    current = await createTestHost({}, { secrets: new MemorySecretStore() });
    const { host } = current;
    await host.secrets.set('pasted-token', secret);
    // A server name that quotes the secret: the refusal repeats the name it was given.
    const error = await host.registry.add(`bad name ${secret} !`, { command: NODE }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('is not a usable server name');
    expect(error?.message).not.toContain(secret);
  });
});
