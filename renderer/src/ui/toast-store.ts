/**
 * The app's notifications, as data: anything may `notify(...)`; <Toasts /> shows them. Kept outside
 * React so a hook, a store or an event handler can notify without a context.
 */
export type ToastTone = 'error' | 'warn' | 'info' | 'ok';

export interface ToastAction {
  readonly label: string;
  /** An in-app address (`#/servers/notes`): the action is a link to it, and the toast closes. */
  readonly href?: string;
  /** Or something to run; the toast closes after. */
  readonly run?: () => void;
}

export interface ToastInput {
  readonly title: string;
  readonly body?: string;
  readonly tone?: ToastTone;
  readonly action?: ToastAction;
  /** A toast with the same key replaces the earlier one (one toast per server, not one per event). */
  readonly key?: string;
  /** How long it stays, in ms (paused while pointed at or focused); 0 keeps it until closed. Default: 6 s, errors and warnings 12 s. */
  readonly durationMs?: number;
}

export interface Toast extends ToastInput {
  readonly id: string;
  readonly tone: ToastTone;
  readonly durationMs: number;
}

/** At most this many at once: the oldest gives way. */
const MAX_SHOWN = 4;

let toasts: readonly Toast[] = [];
let nextId = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of [...listeners]) listener();
}

/** Shows a notification; returns its id (for `dismiss`). */
export function notify(input: ToastInput): string {
  const tone = input.tone ?? 'info';
  const toast: Toast = { ...input, id: `t${++nextId}`, tone, durationMs: input.durationMs ?? (tone === 'error' || tone === 'warn' ? 12_000 : 6_000) };
  const others = input.key === undefined ? toasts : toasts.filter((t) => t.key !== input.key);
  toasts = [...others, toast].slice(-MAX_SHOWN);
  emit();
  return toast.id;
}

/** Closes one notification by id. */
export function dismiss(id: string): void {
  const next = toasts.filter((t) => t.id !== id);
  if (next.length === toasts.length) return;
  toasts = next;
  emit();
}

/** Closes the notification with this key, if one is shown (the thing it was about got better). */
export function dismissKey(key: string): void {
  const shown = toasts.find((t) => t.key === key);
  if (shown) dismiss(shown.id);
}

export function toastSnapshot(): readonly Toast[] {
  return toasts;
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
