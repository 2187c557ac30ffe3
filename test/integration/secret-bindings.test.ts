/**
 * A keychain secret belongs to the servers it was set for (real Host, real echo-env processes,
 * real consent.db; secret values in a memory store): the editor's values and an import's moved
 * literals belong to their server; any other server referencing them is refused (CLI: the
 * `harbor secret grant` command to run) or asked about (app: a "secret" consent request naming
 * the server, its command line and the variable); a grant is remembered; editing a server keeps
 * the secrets it had.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FIXTURES, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { errorOf } from '../helpers/harbor-error';

const ECHO_ENV = join(FIXTURES, 'echo-env.mjs');
const echoWith = (token: string, extraArgs: string[] = []) => ({ command: NODE, args: [ECHO_ENV, ...extraArgs], env: { TOKEN: token } });

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

async function tokenSeenBy(t: TestHost, server: string): Promise<string> {
  const result = (await t.call(server, 'get_env', { name: 'TOKEN' })) as { structuredContent?: { value: string } };
  return result.structuredContent!.value;
}

describe('secrets set in the editor belong to their server', () => {
  it('the server they were typed for gets them; another server referencing them is refused with the grant command, until granted', async () => {
    current = await createTestHost({}, { secrets: new MemorySecretStore() });
    const host = current.host;
    await host.registry.add('mine', echoWith('${secret:mine-token}'), [{ name: 'mine-token', value: 'tok-typed-in-the-editor' }]);
    expect(host.consent.decisions().secrets).toMatchObject([{ secret: 'mine-token', server: 'mine', origin: 'set' }]);
    // Masked on the way out: what matters is that it resolved (a refusal would throw).
    expect(await tokenSeenBy(current, 'mine')).toBe('***');

    await host.registry.add('thief', echoWith('${secret:mine-token}', ['--thief']));
    const refused = await errorOf(host.servers.connect('thief'));
    expect(refused.code).toBe('CONSENT_REQUIRED');
    expect(refused.message).toContain('"mine-token" (in the environment variable TOKEN)');
    expect(refused.message).toContain('run: harbor secret grant mine-token thief');

    expect(() => host.secrets.grant('mine-token', 'notes-that-do-not-exist')).toThrow(/No server named/);
    expect(host.secrets.grant('mine-token', 'thief')).toEqual({ secret: 'mine-token', server: 'thief', granted: true });
    expect(await tokenSeenBy(current, 'thief')).toBe('***');
    expect(host.secrets.owners()).toEqual([{ secret: 'mine-token', belongsTo: ['mine', 'thief'], notGranted: [] }]);
  });

  it('a grant is refused for a secret the server does not reference', async () => {
    current = await createTestHost({ mine: echoWith('${secret:a}') }, { secrets: new MemorySecretStore({ a: 'value-a-1234' }) });
    expect(() => current!.host.secrets.grant('b', 'mine')).toThrow(/does not reference \$\{secret:b\}/);
  });

  it('a value for a secret the configuration does not reference is refused and nothing is saved', async () => {
    current = await createTestHost({}, { secrets: new MemorySecretStore() });
    const error = await errorOf(current.host.registry.add('mine', echoWith('${secret:a}'), [{ name: 'b', value: 'value-b-1234' }]));
    expect(error.code).toBe('BAD_REQUEST');
    expect(current.host.servers.list()).toEqual([]);
  });

  it('editing a server (another argument) keeps the secrets it had', async () => {
    current = await createTestHost({}, { secrets: new MemorySecretStore() });
    const host = current.host;
    await host.registry.add('mine', echoWith('${secret:mine-token}'), [{ name: 'mine-token', value: 'tok-typed-in-the-editor' }]);
    await host.registry.update('mine', echoWith('${secret:mine-token}', ['--verbose']));
    expect(host.consent.decisions().secrets).toMatchObject([{ secret: 'mine-token', server: 'mine', origin: 'set' }]);
    expect(await tokenSeenBy(current, 'mine')).toBe('***');
  });
});

describe('in the app, a secret the server was not given is a question', () => {
  it('asks naming the server, its command line and the variable; "give" is remembered, "deny" refuses the start', async () => {
    current = await createTestHost({}, { secrets: new MemorySecretStore({ shared: 'value-shared-1234' }), interactiveConsent: true });
    const host = current.host;
    const asked: ConsentRequest[] = [];
    disposeAfterTest(host.events.onEvent('consent.request', (r) => asked.push(r)));
    await host.registry.add('asker', echoWith('Bearer ${secret:shared}'));
    const start = host.servers.start('asker');
    await waitFor(() => asked.length === 1, 'the secret request');
    expect(asked[0]).toMatchObject({
      kind: 'secret',
      server: 'asker',
      options: ['always', 'deny'],
      secret: { name: 'shared', field: 'env', keys: ['TOKEN'], target: `${NODE} ${ECHO_ENV}` },
    });
    expect(JSON.stringify(asked[0])).not.toContain('value-shared-1234');
    host.consent.respond(asked[0]!.id, 'always');
    expect((await start).state.kind).toBe('ready');
    expect(host.consent.decisions().secrets).toMatchObject([{ secret: 'shared', server: 'asker', origin: 'granted' }]);
    await host.servers.restart('asker');
    expect(asked).toHaveLength(1);

    await host.registry.add('denied', echoWith('${secret:shared}', ['--other']));
    const denied = host.servers.start('denied');
    await waitFor(() => asked.length === 2, 'the second secret request');
    host.consent.respond(asked[1]!.id, 'deny');
    expect((await denied).state).toMatchObject({ kind: 'error', code: 'CONSENT_DENIED', message: 'You did not give "denied" the secret "shared".' });
  });
});

describe('import', () => {
  it('a literal the file held belongs to its server; a reference to a secret the file did not create does not', async () => {
    current = await createTestHost({}, { secrets: new MemorySecretStore({ victim: 'value-victim-1234' }) });
    const host = current.host;
    const file = join(current.dir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          carried: { command: NODE, args: [ECHO_ENV], env: { TOKEN: 'literal-token-from-file-1234' } },
          borrower: { command: NODE, args: [ECHO_ENV, '--b'], env: { TOKEN: '${secret:victim}' } },
        },
      }),
    );
    const { report } = await host.imports.run(file, {});
    expect(report.secretReferences).toEqual([
      { server: 'carried', where: 'env.TOKEN', secret: 'carried-token', createdByFile: true },
      { server: 'borrower', where: 'env.TOKEN', secret: 'victim', createdByFile: false },
    ]);
    expect(host.consent.decisions().secrets).toMatchObject([{ secret: 'carried-token', server: 'carried', origin: 'set' }]);
    expect(await tokenSeenBy(current, 'carried')).toBe('***');
    const refused = await errorOf(host.servers.connect('borrower'));
    expect(refused.code).toBe('CONSENT_REQUIRED');
    expect(refused.message).toContain('harbor secret grant victim borrower');
  });
});

describe('sign-in settings are secret carriers too', () => {
  it("a remote server's oauth entry cannot name another server's secret: refused before any request", async () => {
    const { createServer } = await import('node:http');
    let requests = 0;
    const listener = createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const address = listener.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      current = await createTestHost({}, { secrets: new MemorySecretStore() });
      const host = current.host;
      await host.registry.add('mine', echoWith('${secret:mine-token}'), [{ name: 'mine-token', value: 'tok-typed-in-the-editor' }]);
      // Trusted: no URL approval in the way, so only the secret's owner stands between it and the listener.
      await host.registry.add('evil', {
        url: `http://127.0.0.1:${address.port}/mcp`,
        trusted: true,
        oauth: { grant: 'client_credentials', clientId: 'harbor', clientSecret: '${secret:mine-token}' },
      });
      const refused = await errorOf(host.servers.connect('evil'));
      expect(refused.code).toBe('CONSENT_REQUIRED');
      expect(refused.message).toContain('"mine-token" (in the sign-in setting oauth.clientSecret)');
      expect(refused.message).toContain('run: harbor secret grant mine-token evil');
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
