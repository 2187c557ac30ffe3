/**
 * A server's lists that could not be fetched again after it said they changed. Harbor keeps the
 * last good lists and says so — which lists, the server's message, since when they are old — on the
 * server's card, in `harbor watch` and in Harbor's own log; it retries with capped backoff and
 * clears the mark when a refresh succeeds. Without this, a server whose `tools/list` fails after
 * `list_changed` looked fine while its old tools were offered.
 */
import type { StaleListsData } from '../../../preload/contract';
import { HarborError } from '../errors';
import { type Disposable, markAsDisposed, trackDisposable } from '../lifecycle';
import type { LogSink } from '../log/harbor-log';
import type { CatalogKind } from './catalog';

export interface StaleListsDeps {
  readonly server: string;
  /** Fetches these lists again; rejects when the server still fails. */
  readonly refetch: (lists: readonly CatalogKind[]) => Promise<void>;
  /** The mark appeared, changed or went away. */
  readonly onChange: () => void;
  /** When the lists now shown were fetched. */
  readonly lastGoodAt: () => number;
  readonly log?: LogSink;
  readonly now?: () => number;
  /** First retry delay, doubled each time up to maxMs. */
  readonly baseMs?: number;
  readonly maxMs?: number;
}

function messageOf(error: unknown): string {
  if (error instanceof HarborError || error instanceof Error) return error.message;
  return String(error);
}

export class StaleLists implements Disposable {
  private mark: StaleListsData | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retries = 0;
  private disposed = false;

  constructor(private readonly deps: StaleListsDeps) {
    trackDisposable(this);
  }

  get current(): StaleListsData | undefined {
    return this.mark;
  }

  /** A refresh of `lists` failed: mark them, log it, and try again later. */
  failed(lists: readonly CatalogKind[], error: unknown): void {
    if (this.disposed) return;
    const now = (this.deps.now ?? Date.now)();
    const merged = [...new Set([...(this.mark?.lists ?? []), ...lists])];
    const delay = Math.min((this.deps.baseMs ?? 2_000) * 2 ** this.retries, this.deps.maxMs ?? 60_000);
    this.retries++;
    this.mark = { lists: merged, message: messageOf(error), since: this.deps.lastGoodAt(), failedAt: now, nextRetryAt: now + delay };
    this.deps.log?.write('warn', {
      area: 'servers',
      server: this.deps.server,
      message: `list refresh failed (${merged.join(', ')}): showing the lists from ${new Date(this.mark.since).toISOString()}; retrying in ${Math.round(delay / 1000)} s`,
      error,
    });
    this.schedule(delay);
    this.deps.onChange();
  }

  /** The lists were fetched whole (a refresh, a retry or a new connection): the mark goes. */
  succeeded(): void {
    this.cancel();
    this.retries = 0;
    if (!this.mark) return;
    this.deps.log?.write('info', { area: 'servers', server: this.deps.server, message: `list refresh succeeded again (${this.mark.lists.join(', ')})` });
    this.mark = undefined;
    this.deps.onChange();
  }

  /** The server stopped: there is nothing to refresh, and the next connection fetches everything. */
  reset(): void {
    this.cancel();
    this.retries = 0;
    if (!this.mark) return;
    this.mark = undefined;
    this.deps.onChange();
  }

  /** Retry now (the card's Retry): resolves when the refetch ended, either way. */
  async retryNow(): Promise<void> {
    const mark = this.mark;
    if (!mark) return;
    this.cancel();
    await this.attempt(mark.lists);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancel();
    markAsDisposed(this);
  }

  private schedule(delay: number): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.mark) void this.attempt(this.mark.lists);
    }, delay);
    // A retry alone must not keep a one-shot command alive.
    this.timer.unref?.();
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async attempt(lists: readonly CatalogKind[]): Promise<void> {
    try {
      await this.deps.refetch(lists);
      if (!this.disposed) this.succeeded();
    } catch (error) {
      this.failed(lists, error);
    }
  }
}
