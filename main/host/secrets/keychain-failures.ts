import { HarborError } from '../errors';

const LINUX_FIX =
  'Install and unlock a Secret Service such as gnome-keyring (Debian/Ubuntu: "sudo apt install gnome-keyring", then log in to a desktop session; ' +
  'headless: run Harbor inside "dbus-run-session" after "gnome-keyring-daemon --unlock --components=secrets"), ' +
  'or KeePassXC with its Secret Service integration turned on (Tools > Settings > Secret Service Integration).';

const UNLOCK_FIX = 'Unlock your keyring (log in to the desktop session, or run "gnome-keyring-daemon --unlock") and try again.';

/** What went wrong, in words, and what to do; chosen from the keyring library's message. */
function describeLinux(raw: string): { cause: string; fix: string } {
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch|Failed to connect to (the )?(address|socket)|No such file or directory|Connection refused/i.test(raw)) {
    return { cause: 'there is no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set or points nowhere)', fix: LINUX_FIX };
  }
  if (/org\.freedesktop\.secrets was not provided|ServiceUnknown|not provided by any \.service/i.test(raw)) {
    return { cause: 'no Secret Service is running on the session bus (nothing provides org.freedesktop.secrets)', fix: LINUX_FIX };
  }
  if (/no result found|collection.*(not|no) (exist|found)|Object does not exist/i.test(raw)) {
    return { cause: 'the Secret Service has no default keyring to store secrets in (it was never set up or unlocked)', fix: LINUX_FIX };
  }
  if (/prompt was dismissed|locked|unlock/i.test(raw)) {
    return { cause: 'the keyring is locked and could not be unlocked (the unlock prompt was dismissed or could not be shown)', fix: UNLOCK_FIX };
  }
  return { cause: `the Secret Service refused the request (${raw})`, fix: LINUX_FIX };
}

function describe(raw: string, platform: NodeJS.Platform): { cause: string; fix: string } {
  if (platform === 'darwin') {
    return { cause: `the macOS Keychain refused the request (${raw})`, fix: 'Unlock your login keychain in Keychain Access, allow Harbor to use it, and try again.' };
  }
  if (platform === 'win32') {
    return { cause: `Windows Credential Manager refused the request (${raw})`, fix: 'Check that Credential Manager works for your account (Control Panel > Credential Manager) and try again.' };
  }
  return describeLinux(raw);
}

const NO_FALLBACK = 'Harbor keeps secrets only in the OS keychain and never falls back to a plain-text file.';

/** KEYCHAIN_UNAVAILABLE for a failure reported by the keychain; the raw message goes to `detail`. */
export function keychainFailure(raw: string, platform: NodeJS.Platform = process.platform): HarborError {
  const { cause, fix } = describe(raw, platform);
  return new HarborError('KEYCHAIN_UNAVAILABLE', `The OS keychain is unavailable: ${cause}. ${fix} ${NO_FALLBACK}`, raw);
}

/** KEYCHAIN_UNAVAILABLE for a call that did not answer in time (a locked keyring can wait on a prompt forever). */
export function keychainTimeout(timeoutMs: number, platform: NodeJS.Platform = process.platform): HarborError {
  const fix = platform === 'linux' ? UNLOCK_FIX : 'Answer or dismiss any keychain prompt, unlock the keychain, and try again.';
  return new HarborError(
    'KEYCHAIN_UNAVAILABLE',
    `The OS keychain is unavailable: it did not answer within ${Math.round(timeoutMs / 100) / 10} s (a locked keyring may be waiting on an unlock prompt). ${fix} ${NO_FALLBACK}`,
  );
}
