import { randomBytes } from 'node:crypto';
import { it } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';

/** The keychain these tests use on this OS, for test titles and messages. */
export const KEYCHAIN_NAME = process.platform === 'darwin' ? 'macOS Keychain' : process.platform === 'win32' ? 'Windows Credential Manager' : 'Secret Service';

/** How CI provides a usable keychain on this OS: the fix when it does not. */
const CI_SETUP =
  process.platform === 'darwin'
    ? 'The release workflow must create, unlock and make default a temporary keychain first (security create-keychain / unlock-keychain / list-keychains / default-keychain).'
    : process.platform === 'win32'
      ? "Credential Manager must work for the runner's user (it does on GitHub's Windows runners)."
      : '.ci/run must run the tests inside dbus-run-session after gnome-keyring-daemon --unlock --components=secrets.';

/**
 * Why the ambient keychain cannot be used by these tests, or undefined when it can (a real
 * write, read and delete under a throwaway service name). On Linux the Secret Service lives on a
 * D-Bus session bus, so no bus means no keychain; macOS and Windows always have theirs, so the
 * probe alone decides (a locked Keychain fails it, within the store's timeout).
 */
export async function keychainProblem(): Promise<string | undefined> {
  if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS) {
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
 * Locally, keychain tests may skip with the reason in their title; in CI (Linux, macOS and
 * Windows runners alike) the real keychain is required, so its absence is a failing test, never a
 * silent skip.
 */
export async function requireKeychainInCi(): Promise<string | undefined> {
  const problem = await keychainProblem();
  if (process.env.CI && problem) {
    it(`has a usable ${KEYCHAIN_NAME} in CI`, () => {
      throw new Error(`The real keychain is required in CI but is not usable: ${problem}. ${CI_SETUP}`);
    });
  }
  return problem;
}

/**
 * Tests of a MISSING or stuck keychain take the D-Bus session away (or start private ones): a
 * Linux-only way to make the Secret Service disappear. macOS and Windows have no such switch, so
 * there those tests are skipped, with this reason; undefined on Linux.
 */
export const NO_KEYCHAIN_SIMULATION =
  process.platform === 'linux' ? undefined : `a missing keychain is simulated by taking the D-Bus session away, which only Linux has; the ${KEYCHAIN_NAME} cannot be switched off for a test`;
