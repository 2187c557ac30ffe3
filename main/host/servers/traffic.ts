import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export interface TrafficEntry {
  readonly seq: number;
  readonly at: number;
  readonly server: string;
  readonly direction: 'out' | 'in';
  /** The message as JSON text, secrets redacted. */
  readonly text: string;
  readonly method?: string;
  readonly id?: string | number;
}

export type Redact = (text: string) => string;

/**
 * One recorded message. Its text is serialised and redacted on first read: a call nobody watches
 * costs no JSON.stringify (messages are not mutated after they are sent or parsed, so the text is
 * the same later). A class, not an object literal with a getter: this runs for every message in
 * and out, and the literal costs several times more to build.
 */
class RecordedMessage implements TrafficEntry {
  readonly method?: string;
  readonly id?: string | number;
  private textCache: string | undefined;

  constructor(
    readonly seq: number,
    readonly at: number,
    readonly server: string,
    readonly direction: 'out' | 'in',
    private readonly message: JSONRPCMessage,
    private readonly redact: Redact,
  ) {
    const m = message as { method?: unknown; id?: unknown };
    if (typeof m.method === 'string') this.method = m.method;
    if (typeof m.id === 'string' || typeof m.id === 'number') this.id = m.id;
  }

  get text(): string {
    return (this.textCache ??= this.redact(JSON.stringify(this.message)));
  }
}

/** A plain copy of an entry, text included, for whatever crosses a process boundary. */
export function plainTrafficEntry(entry: TrafficEntry): TrafficEntry {
  return {
    seq: entry.seq,
    at: entry.at,
    server: entry.server,
    direction: entry.direction,
    text: entry.text,
    ...(entry.method !== undefined ? { method: entry.method } : {}),
    ...(entry.id !== undefined ? { id: entry.id } : {}),
  };
}

/**
 * Every JSON-RPC message in and out, per server, bounded (oldest dropped first), with secrets
 * redacted before anything is stored: the Activity view and `--trace` read from here.
 */
export class TrafficLog {
  private readonly entries: RecordedMessage[] = [];
  private seq = 0;
  private readonly listeners = new Set<(entry: TrafficEntry) => void>();

  constructor(
    private readonly redact: Redact = (t) => t,
    private readonly capacity = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  record(server: string, direction: 'out' | 'in', message: JSONRPCMessage): void {
    const entry = new RecordedMessage(++this.seq, this.now(), server, direction, message, this.redact);
    this.entries.push(entry);
    // Trim in batches: splicing one entry off the front of a full log on every message is O(n).
    if (this.entries.length > this.capacity * 1.25) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(entry);
  }

  /** Plain objects (text included), safe to send over IPC or a WebSocket. */
  list(filter: { server?: string; afterSeq?: number } = {}): TrafficEntry[] {
    return this.entries
      .slice(-this.capacity)
      .filter((e) => (filter.server === undefined || e.server === filter.server) && e.seq > (filter.afterSeq ?? 0))
      .map(plainTrafficEntry);
  }

  /** Listeners get the recorded entry itself: read `text` only when it is needed. */
  onEntry(listener: (entry: TrafficEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
