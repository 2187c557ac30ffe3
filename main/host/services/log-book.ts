import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { ServerLogEntry } from '../../../preload/contract';
import type { HostEvents } from '../events';

/** Log messages kept per server (the oldest dropped first). */
const PER_SERVER = 500;

/**
 * Every server's log messages (`notifications/message`), as they arrive: kept per server for the
 * log view and announced as `servers.log` for the Activity view and `harbor watch`. A server's
 * `data` is any JSON; it leaves the Host masked like anything else a server wrote.
 */
export class LogBook {
  private readonly byServer = new Map<string, ServerLogEntry[]>();
  private seq = 0;

  constructor(
    private readonly events: HostEvents,
    private readonly now: () => number = Date.now,
  ) {}

  record(server: string, message: LoggingMessageNotification['params']): void {
    const entry: ServerLogEntry = {
      seq: ++this.seq,
      at: this.now(),
      server,
      level: message.level,
      ...(typeof message.logger === 'string' ? { logger: message.logger } : {}),
      data: message.data ?? null,
    };
    let entries = this.byServer.get(server);
    if (!entries) this.byServer.set(server, (entries = []));
    entries.push(entry);
    if (entries.length > PER_SERVER) entries.splice(0, entries.length - PER_SERVER);
    this.events.emit('servers.log', entry);
  }

  /** One server's messages, oldest first. */
  list(server: string): ServerLogEntry[] {
    return [...(this.byServer.get(server) ?? [])];
  }
}
