import { useSyncExternalStore } from 'react';
import { resolvedTheme } from './host-context';

/**
 * The theme the page shows now: the one chosen in Settings (data-theme on <html>), or the
 * system's. Changes live, so apps switch with the page.
 */
function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  media?.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    media?.removeEventListener('change', onChange);
  };
}

export function usePageTheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribe, () => resolvedTheme());
}
