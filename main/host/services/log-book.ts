import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { ServerLogEntry } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { RingLog, type RingLimits } from '../ring-log';
import { jsonSizeAtMost, previewText } from '../text-preview';

/** Log messages kept per server: 500, or 1 MiB of them, whichever comes first (the oldest dropped first). */
export const LOG_BOOK_LIMITS: RingLimits = { maxEntries: 500, maxBytes: 1024 * 1024 };
/** A message whose data is larger is kept as a preview of its JSON ("… N KB more"). */
const MAX_DATA_CHARS = 16 * 1024;
/** What an entry costs beyond its data (level, logger, numbers): counted so a flood of tiny messages is bounded too. */
const ENTRY_OVERHEAD = 64;

/**
 * Every server's log messages (`notifications/message`), as they arrive: kept per server (a ring
 * log, bounded by count and size; a large `data` kept as a preview of its JSON) for the log view and announced as `servers.log` for the Activity view and `harbor watch`. A server's
 * `data` is any JSON; it leaves the Host masked like anything else a server wrote.
 */
export class LogBook {
  private readonly byServer = new Map<string, RingLog<ServerLogEntry>>();
  private seq = 0;

  constructor(
    private readonly events: HostEvents,
    private readonly now: () => number = Date.now,
  ) {}

  record(server: string, message: LoggingMessageNotification['params']): void {
    const data: unknown = message.data ?? null;
    const size = jsonSizeAtMost(data, MAX_DATA_CHARS);
    const kept = size > MAX_DATA_CHARS ? previewText(JSON.stringify(data), MAX_DATA_CHARS) : data;
    const entry: ServerLogEntry = {
      seq: ++this.seq,
      at: this.now(),
      server,
      level: message.level,
      ...(typeof message.logger === 'string' ? { logger: message.logger } : {}),
      data: kept,
    };
    this.logOf(server).push(entry);
    this.events.emit('servers.log', entry);
  }

  /** One server's messages, oldest first. */
  list(server: string): ServerLogEntry[] {
    return this.byServer.get(server)?.toArray() ?? [];
  }

  /** About how many characters one server's kept messages take (what LOG_BOOK_LIMITS.maxBytes bounds). */
  retainedBytes(server: string): number {
    return this.byServer.get(server)?.bytes ?? 0;
  }

  private logOf(server: string): RingLog<ServerLogEntry> {
    let log = this.byServer.get(server);
    if (!log) this.byServer.set(server, (log = new RingLog(LOG_BOOK_LIMITS, (entry) => ENTRY_OVERHEAD + jsonSizeAtMost(entry.data, LOG_BOOK_LIMITS.maxBytes))));
    return log;
  }
}
