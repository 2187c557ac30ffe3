/**
 * The keychain unavailable or stuck, for real: this file starts D-Bus sessions of its own (a bus
 * with no Secret Service; a bus with an unlocked gnome-keyring that is then frozen with SIGSTOP, as
 * a keyring blocked on an unlock prompt would be), so it never disturbs the session other tests
 * share; stores and CLI runs (the build is needed) are pointed at them through their environment.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { NO_KEYCHAIN_SIMULATION } from '../helpers/keychain';

const SERVICE = `harbor-test-${process.pid}-${randomBytes(4).toString('hex')}`;
const CLI = join(resolve(import.meta.dirname, '../..'), 'out/main/cli.js');
const TOOLS = ['dbus-daemon', 'gnome-keyring-daemon', 'dbus-send'];
const missingTools = TOOLS.filter((tool) => !['/usr/bin', '/bin', '/usr/local/bin'].some((dir) => existsSync(join(dir, tool))));

if (process.env.CI && NO_KEYCHAIN_SIMULATION === undefined && missingTools.length) {
  it('has dbus and gnome-keyring installed in CI', () => {
    throw new Error(`Missing in CI: ${missingTools.join(', ')}. .ci/run must apt-get install dbus gnome-keyring.`);
  });
}

interface PrivateBus {
  readonly address: string;
  /** For child processes: this bus, and HOME/XDG dirs inside the bus's temp dir. */
  readonly env: NodeJS.ProcessEnv;
  readonly dir: string;
  /** gnome-keyring-daemon's pid, when one was started. */
  readonly keyringPid?: number;
  stop(): Promise<void>;
}

function exec(command: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(command, args, { env, timeout: 15_000 }, (error, stdout, stderr) => done({ ok: !error, stdout, stderr }));
    child.stdin?.on('error', () => undefined); // EPIPE when it exits without reading
    child.stdin?.end(input);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A D-Bus session of this test's own: a bus daemon on a socket in a temp dir, with nothing
 * D-Bus-activatable, and, if asked, an unlocked gnome-keyring (password on stdin, keyring files in
 * the temp dir). stop() ends both by pid and removes the dir.
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
    const address = await new Promise<string>((resolveAddress, reject) => {
      const timer = setTimeout(() => reject(new Error('dbus-daemon did not print its address')), 10_000);
      daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)));
      createInterface({ input: daemon.stdout! }).once('line', (line) => {
        clearTimeout(timer);
        resolveAddress(line.trim());
      });
    });
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, XDG_RUNTIME_DIR: join(dir, 'run'), XDG_DATA_HOME: join(dir, 'data'), HOME: join(dir, 'home') };
    if (options.keyring) {
      const started = await exec('gnome-keyring-daemon', ['--unlock', '--components=secrets'], env, 'test-password');
      if (!started.ok) throw new Error(`gnome-keyring-daemon failed: ${started.stderr}`);
      // The launcher returns before the daemon owns its name on the bus: wait for it.
      for (let attempt = 0; keyringPid === undefined && attempt < 50; attempt++) {
        const owner = await exec('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.GetConnectionUnixProcessID', 'string:org.freedesktop.secrets'], env);
        const pid = /uint32 (\d+)/.exec(owner.stdout)?.[1];
        if (pid) keyringPid = Number(pid);
        else await sleep(100);
      }
      if (keyringPid === undefined) throw new Error('gnome-keyring-daemon never appeared on the private bus');
    }
    return { address, env, dir, ...(keyringPid !== undefined ? { keyringPid } : {}), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** The built CLI in the given environment; killed (and the test failed) if it runs past 20 s. */
function harbor(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npx electron-vite build" first (npm test does).`);
  const started = Date.now();
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`harbor ${args.join(' ')} hung (killed after 20 s). stderr: ${stderr}`));
    }, 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** What the CLI needs beside the bus: the test keychain service and a registry in the bus's dir. */
function cliEnv(bus: PrivateBus): NodeJS.ProcessEnv {
  return { ...bus.env, HARBOR_KEYCHAIN_SERVICE: SERVICE, HARBOR_CONFIG: join(bus.dir, 'home', 'harbor.json'), HARBOR_DATA_DIR: join(bus.dir, 'home', 'data') };
}

async function rejection(promise: Promise<unknown>): Promise<HarborError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(HarborError);
  return error as HarborError;
}

it.skipIf(NO_KEYCHAIN_SIMULATION !== undefined)(`no session bus at all: every call fails at once with the cause and the fix; status() does not throw${NO_KEYCHAIN_SIMULATION ? ` — skipped: ${NO_KEYCHAIN_SIMULATION}` : ''}`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-nobus-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: dir }; // and no per-user fallback socket
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const store = new KeychainSecretStore({ service: SERVICE, env });
  try {
    const started = Date.now();
    const error = await rejection(store.set('x', 'value-1234'));
    expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
    expect(error.message).toMatch(/no D-Bus session bus/);
    expect(error.message).toMatch(/Install and unlock a Secret Service such as gnome-keyring/);
    expect((await rejection(store.get('x'))).code).toBe('KEYCHAIN_UNAVAILABLE');
    expect((await rejection(store.list())).code).toBe('KEYCHAIN_UNAVAILABLE');
    expect(await store.status()).toMatchObject({ available: false, reason: expect.stringMatching(/no D-Bus session bus/) });
    expect(Date.now() - started).toBeLessThan(10_000);
  } finally {
    store.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

const skipPrivateBuses = NO_KEYCHAIN_SIMULATION ?? (missingTools.length ? `${missingTools.join(', ')} not installed` : undefined);
describe.skipIf(skipPrivateBuses !== undefined)(`the keychain stuck or missing, in private D-Bus sessions${skipPrivateBuses ? ` — skipped: ${skipPrivateBuses}` : ''}`, () => {
  let keyringBus: PrivateBus;

  beforeAll(async () => {
    keyringBus = await startPrivateBus({ keyring: true });
  });

  afterAll(async () => {
    await keyringBus?.stop();
  });

  it('a keyring that stops answering: calls time out and are abandoned; once it answers again, a fresh helper works', async () => {
    // The timeout also covers starting the helper (a Node process) for the first call and again
    // for the call after the freeze: those two must succeed, so it leaves room for a busy machine.
    const store = new KeychainSecretStore({ service: SERVICE, timeoutMs: 1_500, env: keyringBus.env });
    try {
      await store.set('tok', 'value-before-freeze');
      // A stopped daemon stands in for one blocked on an unlock prompt: calls get no answer.
      process.kill(keyringBus.keyringPid!, 'SIGSTOP');
      const started = Date.now();
      const [first, second] = await Promise.all([rejection(store.get('tok')), rejection(store.list())]);
      expect(Date.now() - started).toBeLessThan(3_000);
      for (const error of [first, second]) {
        expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
        expect(error.message).toMatch(/did not answer within 1\.5 s/);
        expect(error.message).toMatch(/never falls back to a plain-text file/);
      }
      process.kill(keyringBus.keyringPid!, 'SIGCONT');
      // The stuck helper was killed, not left behind; the next call starts a fresh one.
      expect(await store.get('tok')).toBe('value-before-freeze');
      expect(await store.delete('tok')).toBe(true);
    } finally {
      process.kill(keyringBus.keyringPid!, 'SIGCONT');
      store.dispose();
    }
  });

  it('the CLI gives up on a frozen keyring after its 3 s timeout and exits 5 (no keychain) instead of hanging', async () => {
    process.kill(keyringBus.keyringPid!, 'SIGSTOP');
    try {
      const run = await harbor(['--json', 'secret', 'list'], cliEnv(keyringBus));
      expect(run.ms).toBeLessThan(10_000);
      expect(run.code).toBe(5);
      expect(JSON.parse(run.stdout.trim())).toMatchObject({ error: { code: 'KEYCHAIN_UNAVAILABLE' } });
      expect(run.stderr).toMatch(/did not answer within 3 s/);
    } finally {
      process.kill(keyringBus.keyringPid!, 'SIGCONT');
    }
  });

  it('a bus with no Secret Service on it: harbor secret set exits 5 saying so, with the fix', async () => {
    const bare = await startPrivateBus({ keyring: false });
    try {
      const run = await harbor(['secret', 'set', 'tok'], cliEnv(bare), 'value-1234\n');
      expect(run.ms).toBeLessThan(10_000);
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(/no Secret Service is running on the session bus/);
      expect(run.stderr).toMatch(/Install and unlock a Secret Service such as gnome-keyring/);
      expect(run.stderr).not.toContain('value-1234');
    } finally {
      await bare.stop();
    }
  });
});
