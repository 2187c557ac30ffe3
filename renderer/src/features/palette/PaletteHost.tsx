import { lazy, Suspense, useEffect } from 'react';
import { Search } from 'lucide-react';
import { ariaShortcut, bindShortcuts, formatShortcut } from '../../lib/shortcuts';
import { builtinCommands, PALETTE_SHORTCUT } from './builtin-commands';
import { registerCommands, useCommands } from './command-registry';
import { closePalette, openPalette, togglePalette, usePaletteState } from './palette-state';
import './palette-button.css';

// The palette (and its search index) loads the first time it opens, not with the first paint.
const CommandPalette = lazy(() => import('./CommandPalette').then((m) => ({ default: m.CommandPalette })));

/**
 * App-wide: the built-in commands, every registered command's keyboard shortcut on the window,
 * and the palette itself while it is open. Mounted once, in the app's shell.
 */
export function PaletteHost() {
  const commands = useCommands();
  const state = usePaletteState();

  useEffect(() => registerCommands(builtinCommands()), []);

  useEffect(() => {
    const outsideText: Record<string, () => void> = {};
    for (const command of commands) {
      for (const shortcut of command.shortcuts ?? []) if (shortcut !== PALETTE_SHORTCUT) outsideText[shortcut] = command.run;
    }
    return bindShortcuts(window, { always: { [PALETTE_SHORTCUT]: togglePalette }, outsideText });
  }, [commands]);

  if (!state.open) return null;
  return (
    <Suspense fallback={null}>
      <CommandPalette key={state.mode} mode={state.mode} onClose={closePalette} />
    </Suspense>
  );
}

/** A visible way in: the palette's button, with its shortcut beside it. */
export function PaletteButton({ rail = false }: { readonly rail?: boolean }) {
  const keys = formatShortcut(PALETTE_SHORTCUT);
  return (
    <button
      type="button"
      className={`palette-button${rail ? ' palette-button--rail' : ''}`}
      title={rail ? `Search… (${keys})` : 'Command palette'}
      aria-keyshortcuts={ariaShortcut(PALETTE_SHORTCUT)}
      onClick={() => openPalette()}
    >
      <span className="palette-button__label">
        <Search aria-hidden="true" size={14} /> <span className={rail ? 'visually-hidden' : undefined}>Search…</span>
      </span>
      {rail ? null : <kbd className="palette-key">{keys}</kbd>}
    </button>
  );
}
