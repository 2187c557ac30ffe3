import { randomBytes } from 'node:crypto';
import { it } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';

/**
 * Why the ambient keychain cannot be used by these tests, or undefined when it can (a real
 * write, read and delete under a throwaway service name).
 */
export async function keychainProblem(): Promise<string | undefined> {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset); run the tests as .ci/run does, inside dbus-run-session with gnome-keyring-daemon --unlock';
  }
  const store = new KeychainSecretStore({ service: `harbor-test-probe-${process.pid}-${randomBytes(4).toString('hex')}` });
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

/**
 * Locally, keychain tests may skip with the reason in their title; in CI the real keychain is
 * required, so its absence is a failing test, never a silent skip.
 */
export async function requireKeychainInCi(): Promise<string | undefined> {
  const problem = await keychainProblem();
  if (process.env.CI && problem) {
    it('has a usable Secret Service in CI', () => {
      throw new Error(
        `The real keychain is required in CI but is not usable: ${problem}. .ci/run must run the tests inside dbus-run-session after gnome-keyring-daemon --unlock --components=secrets.`,
      );
    });
  }
  return problem;
}
