import '../../ui/theme.css';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const KEY = 'harbor.theme';

/** A theme's name, or "system" for anything else (nothing saved, nothing applied, a stray value). */
function asTheme(value: string | null | undefined): Theme {
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
}

/** The saved choice (this browser profile / app window), "system" when none or unreadable. */
export function loadTheme(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): Theme {
  try {
    return asTheme(storage?.getItem(KEY));
  } catch {
    return 'system';
  }
}

/** Who shows the choice (the Settings radios, the theme apps are given): they follow every setTheme, from Settings or the palette. */
const listeners = new Set<() => void>();

/** The theme the page is set to now (its data-theme; none is "system"), whether or not storage kept it. */
export function currentTheme(root: HTMLElement = document.documentElement): Theme {
  return asTheme(root.dataset.theme);
}

/** The theme the page shows now: the one set, or the system's when it is "system". */
export function resolvedTheme(root: HTMLElement = document.documentElement): 'light' | 'dark' {
  const set = currentTheme(root);
  if (set !== 'system') return set;
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Calls `listener` after every setTheme; returns the unsubscribe (useSyncExternalStore's shape). */
export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Applies a theme to the page (data-theme on <html>), remembers it, and tells who shows it. */
export function setTheme(theme: Theme, root: HTMLElement = document.documentElement, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  applyTheme(theme, root);
  try {
    storage?.setItem(KEY, theme);
  } catch {
    // Storage disabled: the choice lasts until the page reloads.
  }
  for (const listener of listeners) listener();
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
