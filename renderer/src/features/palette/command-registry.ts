import { useSyncExternalStore } from 'react';

/** Where a command shows in the palette, and what its group is called there. */
export type CommandGroup = 'Commands' | 'Views' | 'Settings sections';

/**
 * Something the person can do from the palette (and from a keyboard shortcut when it has one).
 * `shortcut` is a tinykeys binding ("$mod+KeyK": Cmd on macOS, Ctrl elsewhere); `shortcuts` lists
 * more than one when a browser keeps the first for itself (see shortcuts.ts).
 */
export interface Command {
  /** Unique among registered commands: a later registration of the same id replaces the earlier one. */
  readonly id: string;
  readonly title: string;
  readonly group: CommandGroup;
  /** Other words that should find it ("dark", "theme"). */
  readonly keywords?: string;
  readonly shortcuts?: readonly string[];
  readonly run: () => void;
}

const commands = new Map<string, Command>();
const listeners = new Set<() => void>();
let snapshot: readonly Command[] = [];

function changed(): void {
  snapshot = [...commands.values()];
  for (const listener of [...listeners]) listener();
}

/**
 * Adds commands to the palette (and their shortcuts to the window). Returns the function that
 * removes exactly these again, for a feature that goes away (its effect's cleanup).
 */
export function registerCommands(added: readonly Command[]): () => void {
  for (const command of added) commands.set(command.id, command);
  changed();
  return () => {
    let removed = false;
    for (const command of added) {
      // A later registration under the same id is not this one's to remove.
      if (commands.get(command.id) === command) {
        commands.delete(command.id);
        removed = true;
      }
    }
    if (removed) changed();
  };
}

/** Every registered command, in registration order. */
export function registeredCommands(): readonly Command[] {
  return snapshot;
}

export function onCommandsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The registered commands, live. */
export function useCommands(): readonly Command[] {
  return useSyncExternalStore(onCommandsChange, registeredCommands);
}
