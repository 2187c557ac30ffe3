import { useSyncExternalStore } from 'react';

/**
 * Which server the Servers page shows, kept in the address (`#/servers/<name>`): the navigation's
 * indicator, a notification's "Show" and the list itself link to a server, and Back works.
 */
export function serverHref(name: string): string {
  return `#/servers/${encodeURIComponent(name)}`;
}

/** The server named in the address, or undefined on the plain Servers page. */
export function selectedServerOf(hash: string): string | undefined {
  const match = /^#\/servers\/([^/?]+)/.exec(hash);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useSelectedServer(): string | undefined {
  return useSyncExternalStore(subscribe, () => selectedServerOf(window.location.hash));
}
