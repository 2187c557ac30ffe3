/**
 * Browser mode's access token. `harbor web` prints a URL with `#token=…` (a fragment, which the
 * browser never sends to any server or in a Referer). We keep it for this tab only (sessionStorage,
 * so a reload still works) and take it out of the address bar so it is not copied or bookmarked.
 */
const STORAGE_KEY = 'harbor.token';

export interface TokenEnvironment {
  readonly location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  readonly history: Pick<History, 'replaceState'>;
  readonly sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
}

export function takeToken(env: TokenEnvironment): string | undefined {
  const match = /^#(?:.*&)?token=([^&]+)/.exec(env.location.hash);
  const fromUrl = match?.[1] ? safeDecode(match[1]) : undefined;
  if (fromUrl) {
    try {
      env.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // storage disabled: the token still works until the tab reloads
    }
    env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}`);
    return fromUrl;
  }
  try {
    return env.sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
