import { useCallback, useRef, useSyncExternalStore } from 'react';

/**
 * UI state that survives a reload (the last conversation, a collapsed sidebar, a picker's choice):
 * JSON in localStorage under `harbor.ui.<key>`. Every hook using a key sees a change at once, in
 * this tab and in others. Storage that cannot be read or written (private mode, full, a page
 * without it) leaves the default in place: remembering is a convenience, never a failure.
 */

const PREFIX = 'harbor.ui.';
const listeners = new Map<string, Set<() => void>>();
/** Parsed values by raw text, so a snapshot keeps its identity while the stored text is unchanged. */
const parsed = new Map<string, { raw: string | null; value: unknown }>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

function notify(key: string): void {
  for (const listener of [...(listeners.get(key) ?? [])]) listener();
}

function subscribeTo(key: string, listener: () => void): () => void {
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === PREFIX + key) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    set.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

/** The stored value, or `fallback` when there is none or it is not JSON. */
export function readPersisted<T>(key: string, fallback: T): T {
  let raw: string | null;
  try {
    raw = storage()?.getItem(PREFIX + key) ?? null;
  } catch {
    return fallback;
  }
  if (raw === null) return fallback;
  const cached = parsed.get(key);
  if (cached && cached.raw === raw) return cached.value as T;
  try {
    const value = JSON.parse(raw) as T;
    parsed.set(key, { raw, value });
    return value;
  } catch {
    return fallback;
  }
}

/** Stores a value (undefined removes it) and tells every hook using the key. */
export function writePersisted<T>(key: string, value: T | undefined): void {
  try {
    if (value === undefined) storage()?.removeItem(PREFIX + key);
    else storage()?.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Not remembered this time; the page goes on with the value in memory.
  }
  notify(key);
}

/** `useState` that survives a reload: `[value, setValue]`, stored under `harbor.ui.<key>`. */
export function usePersisted<T>(key: string, fallback: T): readonly [T, (value: T) => void] {
  const subscribe = useCallback((listener: () => void) => subscribeTo(key, listener), [key]);
  // The first default is kept: a new object each render would be a new snapshot each render.
  const initial = useRef(fallback).current;
  const value = useSyncExternalStore(subscribe, () => readPersisted(key, initial));
  const set = useCallback((next: T) => writePersisted(key, next), [key]);
  return [value, set] as const;
}
