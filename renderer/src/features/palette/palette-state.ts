import { useSyncExternalStore } from 'react';

/** What the palette shows when it opens: everything, or only the commands that have a shortcut. */
export type PaletteMode = 'all' | 'shortcuts';

export type PaletteState = { readonly open: false } | { readonly open: true; readonly mode: PaletteMode };

let state: PaletteState = { open: false };
const listeners = new Set<() => void>();

function set(next: PaletteState): void {
  state = next;
  for (const listener of [...listeners]) listener();
}

/** Opens the palette (or switches what the open one shows). */
export function openPalette(mode: PaletteMode = 'all'): void {
  set({ open: true, mode });
}

export function closePalette(): void {
  if (state.open) set({ open: false });
}

/** Ctrl/Cmd-K: opens it, or closes it when it is open. */
export function togglePalette(): void {
  if (state.open) closePalette();
  else openPalette();
}

export function usePaletteState(): PaletteState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
