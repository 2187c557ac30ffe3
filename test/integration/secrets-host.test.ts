/**
 * `${secret:NAME}` through a real Host: the echo-env fixture (a real process, a real HTTP server)
 * receives the real value, while the registry keeps the reference and everything Harbor shows —
 * tool results, error states, stderr tails, the traffic log — has the value masked. The keychain
 * tests need a Secret Service (CI: see .ci/run; locally without one they are skipped, in CI they fail).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { FIXTURES, NODE, createTestHost, waitFor } from '../helpers/host';
import { NO_KEYCHAIN_SIMULATION, requireKeychainInCi } from '../helpers/keychain';

const ECHO_ENV = join(FIXTURES, 'echo-env.mjs');
const SERVICE = `harbor-test-${process.pid}-${randomBytes(4).toString('hex')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A value that appears nowhere else, so any hit is a leak. */
const newSecret = () => `sk-test-${randomBytes(12).toString('hex')}`;


const problem = await requireKeychainInCi();

interface EchoResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: { name: string; set: boolean; value: string; length: number; sha256: string };
}

async function startHttpEcho(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(NODE, [ECHO_ENV, '--http=0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`echo-env --http did not start: ${stderr}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`echo-env --http exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = (JSON.parse(line) as { listening?: string }).listening;
      if (listening) {
        clearTimeout(timer);
        resolve(listening);
      }
    });
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

describe.skipIf(problem !== undefined)(`secrets from the real keychain reach servers, and only servers${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const admin = new KeychainSecretStore({ service: SERVICE });

  afterAll(async () => {
    for (const name of await admin.list().catch(() => [])) await admin.delete(name).catch(() => false);
    admin.dispose();
  });

  it('a stdio server gets the value in its env; the registry keeps the reference; results and logs show ***', async () => {
    const secret = newSecret();
    await admin.set('tok', secret);
    const t = await createTestHost({ echo: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:tok}', OTHER: 'plain' } } }, { secrets: new KeychainSecretStore({ service: SERVICE }) });
    try {
      const result = (await t.call('echo', 'get_env', { name: 'TOKEN' })) as EchoResult;
      // The server received the real value: its length and hash say so…
      expect(result.structuredContent).toMatchObject({ set: true, length: secret.length, sha256: sha256(secret) });
      // …while what it echoed back reaches no caller.
      expect(result.content).toEqual([{ type: 'text', text: '***' }]);
      expect(result.structuredContent!.value).toBe('***');

      const registry = readFileSync(join(t.dir, 'harbor.json'), 'utf8');
      expect(registry).toContain('${secret:tok}');
      expect(registry).not.toContain(secret);
      const traffic = t.host.traffic.list().map((e) => e.text).join('\n');
      expect(traffic).toContain('tools/call');
      expect(traffic).not.toContain(secret);
      // The server wrote the value to its stderr too: the tail Harbor keeps shows it masked.
      // (stderr and stdout are separate pipes: the line may land just after the result.)
      await t.host.servers.connect('echo');
      await waitFor(() => t.host.servers.stderrTail('echo').includes('get_env TOKEN='), 'the server\'s stderr line');
      const tail = t.host.servers.stderrTail('echo');
      expect(tail).toContain('get_env TOKEN=***');
      expect(tail).not.toContain(secret);
    } finally {
      await t.dispose();
    }
  });

  it('an HTTP server gets the value inside a header ("Bearer ${secret:…}")', async () => {
    const secret = newSecret();
    await admin.set('api', secret);
    const server = await startHttpEcho();
    const t = await createTestHost({ remote: { url: server.url, headers: { Authorization: 'Bearer ${secret:api}' } } }, { secrets: new KeychainSecretStore({ service: SERVICE }) });
    try {
      const result = (await t.call('remote', 'get_header', { name: 'Authorization' })) as EchoResult;
      expect(result.structuredContent).toMatchObject({ set: true, sha256: sha256(`Bearer ${secret}`) });
      expect(JSON.stringify(result)).not.toContain(secret);
      expect(t.host.traffic.list().map((e) => e.text).join('\n')).not.toContain(secret);
    } finally {
      await t.dispose();
      await server.stop();
    }
  });
});

describe('servers whose secret cannot be had show why, with the fix', () => {
  it('a secret that is not set: error SECRET_MISSING naming it and "harbor secret set"', async () => {
    const t = await createTestHost({ echo: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:gh-token}' } } }, { secrets: new MemorySecretStore() });
    try {
      await t.host.servers.startAll();
      const state = t.host.servers.get('echo').state;
      expect(state).toMatchObject({ kind: 'error', code: 'SECRET_MISSING' });
      expect(state.kind === 'error' && state.message).toMatch(/"gh-token" \(env\.TOKEN\).*harbor secret set gh-token/);
      await expect(t.host.servers.connect('echo')).rejects.toMatchObject({ code: 'SECRET_MISSING' });
    } finally {
      await t.dispose();
    }
  });

  it.skipIf(NO_KEYCHAIN_SIMULATION !== undefined)(`no keychain at all: error KEYCHAIN_UNAVAILABLE with the fix, within seconds${NO_KEYCHAIN_SIMULATION ? ` — skipped: ${NO_KEYCHAIN_SIMULATION}` : ''}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-nobus-'));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: dir };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const t = await createTestHost({ echo: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:tok}' } } }, { secrets: new KeychainSecretStore({ service: SERVICE, env }) });
    try {
      const started = Date.now();
      await t.host.servers.startAll();
      expect(Date.now() - started).toBeLessThan(10_000);
      const state = t.host.servers.get('echo').state;
      expect(state).toMatchObject({ kind: 'error', code: 'KEYCHAIN_UNAVAILABLE' });
      expect(state.kind === 'error' && state.message).toMatch(/gnome-keyring/);
      const error = await t.host.servers.connect('echo').then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(HarborError);
    } finally {
      await t.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a server that prints its secret and dies: the error state and its stderr tail show *** instead', async () => {
    const secret = newSecret();
    const t = await createTestHost(
      { leaky: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:tok}', ECHO_ENV_AT_START: 'TOKEN', ECHO_ENV_EXIT_AT_START: '1' } } },
      { secrets: new MemorySecretStore({ tok: secret }), restart: { maxAttempts: 0 } },
    );
    try {
      await t.host.servers.startAll();
      await waitFor(() => t.host.servers.get('leaky').state.kind === 'error', 'the error state');
      const summary = t.host.servers.get('leaky');
      expect(summary.state).toMatchObject({ kind: 'error', stderrTail: expect.stringContaining('startup TOKEN=***') });
      expect(JSON.stringify(t.host.servers.list())).not.toContain(secret);
      const error = (await t.host.servers.connect('leaky').then(() => undefined, (e: unknown) => e)) as HarborError;
      expect(`${error.message}\n${error.detail ?? ''}`).not.toContain(secret);
    } finally {
      await t.dispose();
    }
  });
});
