import { tinykeys, type KeybindingsMap } from 'tinykeys';

/**
 * Keyboard shortcuts, written as tinykeys bindings: "$mod+KeyK" is Cmd-K on macOS and Ctrl-K
 * elsewhere; keys are named by KeyboardEvent.code ("KeyN", "Digit1") so they do not depend on the
 * keyboard layout or on what Option/Alt makes a key type.
 *
 * A page in a browser cannot take every combination: Chromium keeps Ctrl/Cmd-N (new window),
 * Ctrl/Cmd-T and Ctrl/Cmd-W for itself before the page sees them, so a command bound to one of
 * those also gets an alternative that a browser tab does deliver (Ctrl/Cmd-1…9, which would
 * switch tabs, is delivered first and can be taken).
 */

const MAC = typeof navigator === 'object' && /Mac|iPod|iPhone|iPad/.test(navigator.platform);

const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/** Whether keys pressed here are typing: a text box, a text area, a select or editable content. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUTS.has(target.type);
  return target.closest('[contenteditable]:not([contenteditable="false"])') !== null;
}

const KEY_NAMES: Readonly<Record<string, string>> = { Escape: 'Esc', ArrowUp: '↑', ArrowDown: '↓', Enter: 'Enter' };

/** How a binding reads to the person: "Ctrl+Shift+O" here, "⌘⇧O" on a Mac. */
export function formatShortcut(binding: string, mac = MAC): string {
  const parts = binding.split('+');
  const key = parts.pop() ?? '';
  const name = KEY_NAMES[key] ?? key.replace(/^Key|^Digit/, '');
  const mods = parts.map((mod) => {
    if (mod === '$mod') return mac ? '⌘' : 'Ctrl';
    if (mod === 'Shift') return mac ? '⇧' : 'Shift';
    if (mod === 'Alt') return mac ? '⌥' : 'Alt';
    if (mod === 'Control') return mac ? '⌃' : 'Ctrl';
    return mod;
  });
  return mac ? [...mods, name].join('') : [...mods, name].join('+');
}

/** The same binding as aria-keyshortcuts spells it ("Control+K", "Meta+K"). */
export function ariaShortcut(binding: string, mac = MAC): string {
  return binding
    .split('+')
    .map((part) => (part === '$mod' ? (mac ? 'Meta' : 'Control') : part.replace(/^Key|^Digit/, '')))
    .join('+');
}

export interface ShortcutHandlers {
  /** Fire wherever focus is, even while typing (the palette's own shortcut). */
  readonly always?: Readonly<Record<string, () => void>>;
  /** Fire unless the person is typing in a text field or a modal dialog is open. */
  readonly outsideText: Readonly<Record<string, () => void>>;
}

function handlersOf(map: Readonly<Record<string, () => void>>): KeybindingsMap {
  return Object.fromEntries(
    Object.entries(map).map(([binding, run]) => [
      binding,
      (event: KeyboardEvent) => {
        event.preventDefault();
        run();
      },
    ]),
  );
}

const unusable = (event: KeyboardEvent) => event.repeat || event.isComposing;

/** Listens for the shortcuts on a window; returns the function that stops listening. */
export function bindShortcuts(target: Window, handlers: ShortcutHandlers): () => void {
  const offAlways = tinykeys(target, handlersOf(handlers.always ?? {}), { ignore: unusable });
  const offOutside = tinykeys(target, handlersOf(handlers.outsideText), {
    ignore: (event) => unusable(event) || isTypingTarget(event.target) || target.document.querySelector('dialog[open]') !== null,
  });
  return () => {
    offAlways();
    offOutside();
  };
}
