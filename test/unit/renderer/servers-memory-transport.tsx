/**
 * The contract's Transport answered in memory, for component tests: each command is answered by a
 * handler the test gives (a value, or `{ error }` for an `{ok:false}` result), every call is
 * recorded, and the test can emit Host events. Pages reach it only through buildApi, as in the app.
 */
import { useMemo, type ReactNode } from 'react';
import { buildApi, type Transport } from '../../../preload/contract';
import { ServicesContext } from '../../../renderer/src/app/services';
import { ActivityLog } from '../../../renderer/src/features/activity/activity-log';

export type Handler = (payload: Record<string, unknown>) => unknown;

export class MemoryTransport implements Transport {
  readonly calls: Array<{ command: string; payload: Record<string, unknown> }> = [];
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();

  constructor(public handlers: Record<string, Handler> = {}) {}

  async invoke(command: string, payload: unknown): Promise<unknown> {
    const request = (payload ?? {}) as Record<string, unknown>;
    this.calls.push({ command, payload: request });
    const handler = this.handlers[command];
    if (!handler) return { ok: false, error: { code: 'UNKNOWN_COMMAND', message: `No handler for ${command} in this test.` } };
    const value = await handler(request);
    if (typeof value === 'object' && value !== null && 'error' in value) return { ok: false, error: (value as { error: unknown }).error };
    return { ok: true, value };
  }

  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: string, payload: unknown): void {
    for (const listener of [...this.listeners]) listener(event, payload);
  }

  /** The payloads sent with one command, in order. */
  sent(command: string): Array<Record<string, unknown>> {
    return this.calls.filter((c) => c.command === command).map((c) => c.payload);
  }
}

export function WithHost({ transport, children }: { readonly transport: Transport; readonly children: ReactNode }) {
  const services = useMemo(() => {
    const api = buildApi(transport);
    return { api, activity: new ActivityLog(api) };
  }, [transport]);
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}
