import { describe, expect, it } from 'vitest';
import { takeToken, type TokenEnvironment } from '../../../renderer/src/bridge/token';

function environment(hash: string, stored?: string) {
  const storage = new Map<string, string>(stored ? [['harbor.token', stored]] : []);
  const replaced: string[] = [];
  const env: TokenEnvironment = {
    location: { hash, pathname: '/', search: '' },
    history: { replaceState: (_data, _unused, url) => void replaced.push(String(url)) },
    sessionStorage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
  };
  return { env, storage, replaced };
}

describe('takeToken', () => {
  it('takes the token from the fragment, keeps it for the tab and clears the address bar', () => {
    const { env, storage, replaced } = environment('#token=abc-_123');
    expect(takeToken(env)).toBe('abc-_123');
    expect(storage.get('harbor.token')).toBe('abc-_123');
    expect(replaced).toEqual(['/']);
  });

  it('falls back to the token kept for this tab (a reload)', () => {
    const { env, replaced } = environment('#/servers', 'kept');
    expect(takeToken(env)).toBe('kept');
    expect(replaced).toEqual([]);
  });

  it('prefers a new URL token over the kept one (harbor web restarted)', () => {
    expect(takeToken(environment('#token=new', 'old').env)).toBe('new');
  });

  it('has no token when neither the URL nor the tab has one', () => {
    expect(takeToken(environment('').env)).toBeUndefined();
    expect(takeToken(environment('#token=').env)).toBeUndefined();
  });
});
