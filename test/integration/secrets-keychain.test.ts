/**
 * The real OS keychain: on Linux the Secret Service (gnome-keyring). The round-trip tests use the
 * session CI starts (`dbus-run-session` + `gnome-keyring-daemon --unlock`, see .ci/run); the
 * failure tests start private D-Bus sessions of their own (no Secret Service; a keyring that stops
 * answering), so they never disturb the shared one. In CI a missing keychain FAILS with the reason;
 * locally, without a session bus, those tests are skipped with it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';

const SERVICE = `harbor-test-${process.pid}-${randomBytes(4).toString('hex')}`;
const REPO = resolve(import.meta.dirname, '../..');
const CLI = join(REPO, 'out/main/cli.js');

/** Why the ambient keychain cannot be used here, or undefined when it can (a real write/read/delete). */
async function keychainProblem(): Promise<string | undefined> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset); run the tests as .ci/run does, inside dbus-run-session with gnome-keyring-daemon --unlock';
  const store = new KeychainSecretStore({ service: `${SERVICE}-probe` });
  try {
    await store.set('probe', 'probe-value');
    if ((await store.get('probe')) !== 'probe-value') return 'the keychain did not return what was stored';
    await store.delete('probe');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await store.dispose();
  }
}

const problem = await keychainProblem();
const missingTools = ['dbus-daemon', 'gnome-keyring-daemon', 'dbus-send'].filter((tool) => !['/usr/bin', '/bin', '/usr/local/bin'].some((dir) => existsSync(join(dir, tool))));

if (process.env.CI && problem) {
  it('has a usable Secret Service in CI', () => {
    throw new Error(`The real keychain is required in CI but is not usable: ${problem}. .ci/run must run the tests inside dbus-run-session after gnome-keyring-daemon --unlock --components=secrets.`);
  });
}
if (process.env.CI && missingTools.length) {
  it('has dbus and gnome-keyring installed in CI', () => {
    throw new Error(`Missing in CI: ${missingTools.join(', ')}. .ci/run must apt-get install dbus gnome-keyring.`);
  });
}

/** An environment with no session bus at all (nor the per-user fallback socket in XDG_RUNTIME_DIR). */
function noBusEnv(dir: string): NodeJS.ProcessEnv {
  const env = { ...process.env, XDG_RUNTIME_DIR: dir };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  return env;
}

interface PrivateBus {
  readonly address: string;
  readonly env: NodeJS.ProcessEnv;
  /** The Secret Service's pid (gnome-keyring-daemon), when one was started. */
  readonly keyringPid?: number;
  stop(): Promise<void>;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(command, args, { env, timeout: 15_000 }, (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }));
    child.stdin?.end(input ?? '');
  });
}

/**
 * A D-Bus session of this test's own: a bus daemon on a socket in a temp dir, with nothing
 * D-Bus-activatable, and, if asked, an unlocked gnome-keyring (password on stdin, keyring files
 * in the temp dir). stop() ends both (the keyring daemon by its pid) and removes the dir.
 */
async function startPrivateBus(options: { keyring: boolean }): Promise<PrivateBus> {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-bus-'));
  for (const sub of ['services', 'data', 'run', 'home']) mkdirSync(join(dir, sub), { mode: 0o700 });
  const config = join(dir, 'bus.conf');
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${join(dir, 'bus')}</listen><servicedir>${join(dir, 'services')}</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>\n`,
  );
  const daemon: ChildProcess = spawn('dbus-daemon', ['--config-file', config, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolveAddress, reject) => {
    const timer = setTimeout(() => reject(new Error('dbus-daemon did not print its address')), 10_000);
    daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
    createInterface({ input: daemon.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolveAddress(line.trim());
    });
  });
  const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, XDG_RUNTIME_DIR: join(dir, 'run'), XDG_DATA_HOME: join(dir, 'data'), HOME: join(dir, 'home') };
  let keyringPid: number | undefined;
  const stop = async () => {
    if (keyringPid !== undefined) {
      try {
        process.kill(keyringPid, 'SIGCONT');
        process.kill(keyringPid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    if (daemon.exitCode === null && daemon.signalCode === null) {
      const exited = new Promise((r) => daemon.once('exit', r));
      daemon.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (options.keyring) {
      const started = await run('gnome-keyring-daemon', ['--unlock', '--components=secrets'], env, 'test-password');
      if (started.code !== 0) throw new Error(`gnome-keyring-daemon failed: ${started.stderr}`);
      const owner = await run('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.GetConnectionUnixProcessID', 'string:org.freedesktop.secrets'], env);
      const pid = /uint32 (\d+)/.exec(owner.stdout)?.[1];
      if (!pid) throw new Error(`no Secret Service on the private bus: ${owner.stderr}`);
      keyringPid = Number(pid);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, env, ...(keyringPid !== undefined ? { keyringPid } : {}), stop };
}

async function rejection(promise: Promise<unknown>): Promise<HarborError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(HarborError);
  return error as HarborError;
}

describe.skipIf(problem !== undefined)(`the OS keychain (Secret Service)${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const store = new KeychainSecretStore({ service: SERVICE });

  afterAll(async () => {
    for (const name of await store.list().catch(() => [])) await store.delete(name).catch(() => false);
    await store.dispose();
  });

  it('sets, reads, lists and deletes real secrets, values kept byte for byte', async () => {
    const values = { 'github-token': 'ghp_0123456789abcdef', 'odd.value_1': 'ünï "quoted" \\ line\nbreak 🔑' };
    for (const [name, value] of Object.entries(values)) await store.set(name, value);
    for (const [name, value] of Object.entries(values)) expect(await store.get(name)).toBe(value);
    expect(await store.list()).toEqual(['github-token', 'odd.value_1']);
    expect(await store.status()).toEqual({ available: true });

    await store.set('github-token', 'ghp_rotated');
    expect(await store.get('github-token')).toBe('ghp_rotated');
    expect(await store.get('never-set')).toBeUndefined();

    expect(await store.delete('github-token')).toBe(true);
    expect(await store.delete('github-token')).toBe(false);
    expect(await store.get('github-token')).toBeUndefined();
    expect(await store.list()).toEqual(['odd.value_1']);
  });

  it('stores into the Secret Service itself (secret-tool sees it), under Harbor\'s service name', async () => {
    await store.set('seen-by-secret-tool', 'visible-1234');
    const lookup = await run('secret-tool', ['lookup', 'service', SERVICE, 'username', 'seen-by-secret-tool'], process.env);
    if (lookup.code === 127 || /ENOENT/.test(lookup.stderr)) {
      if (process.env.CI) throw new Error('secret-tool (libsecret-tools) is missing in CI');
      return;
    }
    expect(lookup.stdout).toBe('visible-1234');
    expect(await store.delete('seen-by-secret-tool')).toBe(true);
  });

  it('keeps services apart: another service sees none of these names', async () => {
    await store.set('mine', 'value-1234');
    const other = new KeychainSecretStore({ service: `${SERVICE}-other` });
    try {
      expect(await other.get('mine')).toBeUndefined();
      expect(await other.list()).toEqual([]);
    } finally {
      await other.dispose();
    }
  });
});

describe('the keychain unavailable: a clear KEYCHAIN_UNAVAILABLE, never a hang', () => {
  it('no session bus at all: every call fails at once, naming the cause and the fix; status() does not throw', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-nobus-'));
    const store = new KeychainSecretStore({ service: SERVICE, env: noBusEnv(dir) });
    try {
      const started = Date.now();
      const error = await rejection(store.set('x', 'value-1234'));
      expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
      expect(error.message).toMatch(/no D-Bus session bus/);
      expect(error.message).toMatch(/install and unlock a Secret Service such as gnome-keyring/i);
      expect((await rejection(store.get('x'))).code).toBe('KEYCHAIN_UNAVAILABLE');
      expect((await rejection(store.list())).code).toBe('KEYCHAIN_UNAVAILABLE');
      expect(await store.status()).toMatchObject({ available: false, reason: expect.stringMatching(/no D-Bus session bus/) });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await store.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe.skipIf(missingTools.length > 0)(`private D-Bus sessions${missingTools.length ? ` — skipped: ${missingTools.join(', ')} not installed` : ''}`, () => {
    it('a bus with no Secret Service on it: KEYCHAIN_UNAVAILABLE saying so', async () => {
      const bus = await startPrivateBus({ keyring: false });
      const store = new KeychainSecretStore({ service: SERVICE, env: bus.env });
      try {
        const error = await rejection(store.set('x', 'value-1234'));
        expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
        expect(error.message).toMatch(/no Secret Service is running/);
      } finally {
        await store.dispose();
        await bus.stop();
      }
    });

    it('a keyring that stops answering: calls time out and are abandoned; once it answers again, a fresh thread works', async () => {
      const bus = await startPrivateBus({ keyring: true });
      const store = new KeychainSecretStore({ service: SERVICE, env: bus.env, timeoutMs: 600 });
      try {
        await store.set('tok', 'value-before-freeze');
        // A stopped daemon stands in for one blocked on an unlock prompt: calls get no answer.
        process.kill(bus.keyringPid!, 'SIGSTOP');
        const started = Date.now();
        const [first, second] = await Promise.all([rejection(store.get('tok')), rejection(store.list())]);
        expect(Date.now() - started).toBeLessThan(3_000);
        for (const error of [first, second]) {
          expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
          expect(error.message).toMatch(/did not answer within 0\.6 s/);
        }
        process.kill(bus.keyringPid!, 'SIGCONT');
        expect(await store.get('tok')).toBe('value-before-freeze');
      } finally {
        await store.dispose();
        await bus.stop();
      }
    });

    it.skipIf(!existsSync(CLI))('the CLI exits with KEYCHAIN_UNAVAILABLE while the keyring hangs (the abandoned call does not keep it alive)', async () => {
      const bus = await startPrivateBus({ keyring: true });
      try {
        process.kill(bus.keyringPid!, 'SIGSTOP');
        const started = Date.now();
        const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done, reject) => {
          const child = spawn(process.execPath, [CLI, '--json', 'secret', 'list'], { env: { ...bus.env, HARBOR_KEYCHAIN_SERVICE: SERVICE, HARBOR_CONFIG: join(bus.env.HOME!, 'harbor.json'), HARBOR_DATA_DIR: join(bus.env.HOME!, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
          child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`harbor secret list hung with a frozen keyring (killed after 20 s). stderr: ${stderr}`));
          }, 20_000);
          child.on('close', (code) => {
            clearTimeout(timer);
            done({ code, stdout, stderr });
          });
        });
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(result.code).toBe(3);
        expect(JSON.parse(result.stdout.trim())).toMatchObject({ error: { code: 'KEYCHAIN_UNAVAILABLE' } });
        expect(result.stderr).toMatch(/did not answer within 3 s/);
      } finally {
        await bus.stop();
      }
    });
  });
});
