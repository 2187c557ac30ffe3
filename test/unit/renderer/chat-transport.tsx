/**
 * The contract's Transport answered in memory, for the chat / consent / elicitation component
 * tests: each command has a handler (returning the command's value, or throwing {code,message}
 * for an {ok:false} result), every call is recorded, and `emit` delivers a Host event. The
 * components under test talk to it through the real `buildApi`.
 */
import type { ReactNode } from 'react';
import { buildApi, type HarborApi, type Transport } from '../../../preload/contract';
import { ServicesContext } from '../../../renderer/src/app/services';
import { ActivityLog } from '../../../renderer/src/features/activity/activity-log';

export type Handler = (payload: Record<string, unknown>) => unknown;

export class FakeHost implements Transport {
  readonly calls: { command: string; payload: Record<string, unknown> }[] = [];
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();

  constructor(public handlers: Record<string, Handler> = {}) {}

  async invoke(command: string, payload: unknown): Promise<unknown> {
    const request = (payload ?? {}) as Record<string, unknown>;
    this.calls.push({ command, payload: request });
    const handler = this.handlers[command];
    if (!handler) return { ok: false, error: { code: 'UNKNOWN_COMMAND', message: `no handler for ${command}` } };
    try {
      return { ok: true, value: await handler(request) };
    } catch (error) {
      const e = error as { code?: string; message?: string };
      return { ok: false, error: { code: e.code ?? 'INTERNAL', message: e.message ?? String(error) } };
    }
  }

  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: string, payload: unknown): void {
    for (const listener of [...this.listeners]) listener(event, payload);
  }

  callsOf(command: string): Record<string, unknown>[] {
    return this.calls.filter((c) => c.command === command).map((c) => c.payload);
  }

  get api(): HarborApi {
    return buildApi(this);
  }
}

export function WithHost({ host, children }: { readonly host: FakeHost; readonly children: ReactNode }) {
  const api = buildApi(host);
  return <ServicesContext.Provider value={{ api, activity: new ActivityLog(api) }}>{children}</ServicesContext.Provider>;
}

/** Every attribute in the subtree that could run script or load something by itself. */
export function dangerousAttributes(root: Element): string[] {
  const found: string[] = [];
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const value = attr.value.trim().toLowerCase();
      if (name.startsWith('on')) found.push(`${el.tagName.toLowerCase()}[${name}]`);
      if ((name === 'href' || name === 'src' || name === 'action' || name === 'formaction' || name === 'xlink:href') && /^(javascript|vbscript|data:text)/.test(value)) {
        found.push(`${el.tagName.toLowerCase()}[${name}=${attr.value}]`);
      }
    }
  }
  return found;
}

/**
 * happy-dom has no layout: give the message list's scroll area and its rows a size, so the
 * virtualizer sees a 600 px window over rows of 60 px (as a browser would report). Returns undo.
 */
export function layoutMessageList(viewport = 600, row = 60): () => void {
  const proto = HTMLElement.prototype;
  const originals = (['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth'] as const).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)] as const);
  const fallback = (name: string, el: HTMLElement): number => {
    const original = originals.find(([n]) => n === name)?.[1];
    return (original?.get?.call(el) as number | undefined) ?? 0;
  };
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages') ? viewport : fallback('clientHeight', this); } });
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages') ? 800 : fallback('clientWidth', this); } });
  Object.defineProperty(proto, 'offsetHeight', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages__row') ? row : fallback('offsetHeight', this); } });
  Object.defineProperty(proto, 'offsetWidth', { configurable: true, get(this: HTMLElement) { return this.classList.contains('messages__row') ? 800 : fallback('offsetWidth', this); } });
  return () => {
    for (const [name, descriptor] of originals) {
      if (descriptor) Object.defineProperty(proto, name, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[name];
    }
  };
}
