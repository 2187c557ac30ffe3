import { randomUUID } from 'node:crypto';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationRequestData } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';

interface Pending {
  readonly request: ElicitationRequestData;
  readonly resolve: (result: ElicitResult) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * The app's answer to a server asking for input: an `elicitation.request` event the UI shows as a
 * dialog, answered by `elicitation.respond`. Closing the dialog, the server giving up (its request
 * aborted) or the deadline passing is a `cancel` — never a hang.
 */
export class InteractiveElicitation implements Disposable {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly events: HostEvents,
    private readonly timeoutMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {
    trackDisposable(this);
  }

  readonly respond = (server: string, request: ElicitRequest['params'], context: { signal: AbortSignal }): Promise<ElicitResult> => {
    const id = randomUUID();
    const mode = (request as { mode?: string }).mode === 'url' ? 'url' : 'form';
    const data: ElicitationRequestData = {
      id,
      server,
      mode,
      message: request.message,
      ...(mode === 'form' && 'requestedSchema' in request ? { requestedSchema: request.requestedSchema as Record<string, unknown> } : {}),
      ...(mode === 'url' && 'url' in request ? { url: String(request.url) } : {}),
      deadline: this.now() + this.timeoutMs,
    };
    return new Promise<ElicitResult>((resolve) => {
      const timer = setTimeout(() => this.settle(id, { action: 'cancel' }), this.timeoutMs);
      timer.unref?.();
      this.pending.set(id, { request: data, resolve, timer });
      context.signal.addEventListener('abort', () => this.settle(id, { action: 'cancel' }), { once: true });
      this.events.emit('elicitation.request', data);
    });
  };

  /** The person's answer; unknown or finished ids are ignored. Content only goes with accept in form mode. */
  answer(id: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    const result: ElicitResult =
      action === 'accept' && pending.request.mode === 'form'
        ? { action, content: (content ?? {}) as Record<string, string | number | boolean | string[]> }
        : { action };
    return this.settle(id, result);
  }

  pendingRequests(): ElicitationRequestData[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  private settle(id: string, result: ElicitResult): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.resolve(result);
    this.events.emit('elicitation.resolved', { id, action: result.action });
    return true;
  }

  dispose(): void {
    markAsDisposed(this);
    for (const id of [...this.pending.keys()]) this.settle(id, { action: 'cancel' });
  }
}
