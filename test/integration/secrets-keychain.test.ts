/**
 * The real OS keychain, under a unique service name that is emptied afterwards: on Linux the
 * Secret Service (gnome-keyring) of the session CI starts (`dbus-run-session` +
 * `gnome-keyring-daemon --unlock`, see .ci/run); on macOS the Keychain (in the release workflow a
 * temporary, unlocked default keychain); on Windows the Credential Manager of the runner's user.
 * In CI a missing keychain FAILS with the reason; locally, without one, these tests are skipped
 * with it. Failures (no bus, no Secret Service, a keyring that stops answering) are in
 * secrets-keychain-failures.test.ts.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { KEYCHAIN_NAME, requireKeychainInCi } from '../helpers/keychain';

const SERVICE = `harbor-test-${process.pid}-${randomBytes(4).toString('hex')}`;


const problem = await requireKeychainInCi();

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(command, args, { env, timeout: 15_000 }, (_error, stdout, stderr) => done({ stdout, stderr }));
    child.stdin?.on('error', () => undefined);
    child.stdin?.end();
  });
}

describe.skipIf(problem !== undefined)(`the OS keychain (${KEYCHAIN_NAME})${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const store = new KeychainSecretStore({ service: SERVICE });

  afterAll(async () => {
    for (const name of await store.list().catch(() => [])) await store.delete(name).catch(() => false);
    store.dispose();
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

  it.runIf(process.platform === 'linux')('stores into the Secret Service itself (secret-tool sees it), under Harbor\'s service name', async () => {
    await store.set('seen-by-secret-tool', 'visible-1234');
    if (!existsSync('/usr/bin/secret-tool')) {
      if (process.env.CI) throw new Error('secret-tool (libsecret-tools) is missing in CI: .ci/run installs it');
      return;
    }
    const lookup = await run('secret-tool', ['lookup', 'service', SERVICE, 'username', 'seen-by-secret-tool'], process.env);
    expect(lookup.stdout).toBe('visible-1234');
    expect(await store.delete('seen-by-secret-tool')).toBe(true);
  });

  // Attributes only (no -w): reading the value would ask the person to allow `security`.
  it.runIf(process.platform === 'darwin')('stores into the macOS Keychain itself (`security find-generic-password` sees it), under Harbor\'s service name', async () => {
    await store.set('seen-by-security', 'visible-1234');
    const found = await run('security', ['find-generic-password', '-s', SERVICE, '-a', 'seen-by-security'], process.env);
    expect(found.stdout).toContain(`"svce"<blob>="${SERVICE}"`);
    expect(found.stdout).toContain('"acct"<blob>="seen-by-security"');
    expect(await store.delete('seen-by-security')).toBe(true);
  });

  // cmdkey lists target names only; the keyring library's target holds the service name.
  it.runIf(process.platform === 'win32')('stores into Windows Credential Manager itself (`cmdkey /list` sees it), under Harbor\'s service name', async () => {
    await store.set('seen-by-cmdkey', 'visible-1234');
    const listed = await run('cmdkey', ['/list'], process.env);
    expect(listed.stdout).toContain(SERVICE);
    expect(await store.delete('seen-by-cmdkey')).toBe(true);
  });

  it('keeps services apart: another service sees none of these names', async () => {
    await store.set('mine', 'value-1234');
    const other = new KeychainSecretStore({ service: `${SERVICE}-other` });
    try {
      expect(await other.get('mine')).toBeUndefined();
      expect(await other.list()).toEqual([]);
    } finally {
      other.dispose();
    }
  });
});
