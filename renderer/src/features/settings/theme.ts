import '../../ui/theme.css';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const KEY = 'harbor.theme';

/** The saved choice (this browser profile / app window), "system" when none or unreadable. */
export function loadTheme(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): Theme {
  try {
    const saved = storage?.getItem(KEY);
    return (THEMES as readonly string[]).includes(saved ?? '') ? (saved as Theme) : 'system';
  } catch {
    return 'system';
  }
}

/** Applies a theme to the page (data-theme on <html>) and remembers it. */
export function setTheme(theme: Theme, root: HTMLElement = document.documentElement, storage: Pick<Storage, 'setItem'> | undefined = safeStorage()): void {
  applyTheme(theme, root);
  try {
    storage?.setItem(KEY, theme);
  } catch {
    // Storage disabled: the choice lasts until the page reloads.
  }
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
