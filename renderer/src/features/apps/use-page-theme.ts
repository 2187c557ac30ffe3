import { useSyncExternalStore } from 'react';
import { resolvedTheme, subscribeTheme } from '../settings/theme';

/**
 * The theme the page shows now: the one chosen in Settings or the palette (setTheme), or the
 * system's. Changes live, so apps switch with the page.
 */
function subscribe(onChange: () => void): () => void {
  const unsubscribe = subscribeTheme(onChange);
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  media?.addEventListener('change', onChange);
  return () => {
    unsubscribe();
    media?.removeEventListener('change', onChange);
  };
}

export function usePageTheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribe, () => resolvedTheme());
}
