import { describe, expect, it } from 'vitest';
import { secretValueFromInput } from '../../main/cli/subcommands/secret';
import { HarborError } from '../../main/host/errors';
import { keychainFailure, keychainTimeout } from '../../main/host/secrets/keychain-failures';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { isValidSecretName } from '../../main/host/secrets/store';

describe('MemorySecretStore', () => {
  it('sets, gets, lists sorted names, and deletes', async () => {
    const store = new MemorySecretStore();
    await store.set('b', 'two');
    await store.set('a', 'one');
    await store.set('a', 'uno');
    expect(await store.get('a')).toBe('uno');
    expect(await store.get('zzz')).toBeUndefined();
    expect(await store.list()).toEqual(['a', 'b']);
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.status()).toEqual({ available: true });
  });

  it('refuses bad names and empty values with BAD_REQUEST', async () => {
    const store = new MemorySecretStore();
    await expect(store.set('has space', 'x')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(store.set('ok', '')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(isValidSecretName('github-token.v2_x')).toBe(true);
    for (const bad of ['', 'a/b', 'a:b', '${x}', 'x'.repeat(129)]) expect(isValidSecretName(bad), bad).toBe(false);
  });
});

describe('harbor secret set input', () => {
  it('strips exactly one trailing line ending', () => {
    expect(secretValueFromInput('tok\n')).toBe('tok');
    expect(secretValueFromInput('tok\r\n')).toBe('tok');
    expect(secretValueFromInput('tok\n\n')).toBe('tok\n');
    expect(secretValueFromInput('tok')).toBe('tok');
    expect(secretValueFromInput(' tok \n')).toBe(' tok ');
    expect(secretValueFromInput('\n')).toBe('');
  });
});

describe('keychain failures', () => {
  it('name the cause and the fix for each way a Linux Secret Service is missing', () => {
    const cases: Array<[string, RegExp]> = [
      ['Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead', /no D-Bus session bus/],
      ["zbus error: Failed to connect to address 'unix:path=/run/user/0/bus': No such file or directory (os error 2)", /no D-Bus session bus/],
      ['Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files', /no Secret Service is running/],
      ["Couldn't access platform storage: Secret Service: no result found", /no default keyring/],
      ["Couldn't access platform storage: Secret Service: unlock prompt was dismissed", /keyring is locked/],
    ];
    for (const [raw, cause] of cases) {
      const error = keychainFailure(raw, 'linux');
      expect(error).toBeInstanceOf(HarborError);
      expect(error.code).toBe('KEYCHAIN_UNAVAILABLE');
      expect(error.message).toMatch(cause);
      expect(error.message).toMatch(/gnome-keyring/);
      expect(error.message).toMatch(/never falls back to a plain-text file/);
      expect(error.detail).toBe(raw);
    }
    expect(keychainTimeout(3000, 'linux').message).toMatch(/did not answer within 3 s/);
    expect(keychainFailure('denied', 'darwin').message).toMatch(/macOS Keychain/);
  });
});
