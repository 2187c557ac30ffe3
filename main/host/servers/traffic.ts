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
 * Every JSON-RPC message in and out, per server, bounded (oldest dropped first), with secrets
 * redacted before anything is stored: the Activity view and `--trace` read from here.
 */
export class TrafficLog {
  private readonly entries: TrafficEntry[] = [];
  private seq = 0;
  private readonly listeners = new Set<(entry: TrafficEntry) => void>();

  constructor(
    private readonly redact: Redact = (t) => t,
    private readonly capacity = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  record(server: string, direction: 'out' | 'in', message: JSONRPCMessage): void {
    const m = message as { method?: unknown; id?: unknown };
    const redact = this.redact;
    let text: string | undefined;
    const entry: TrafficEntry = {
      seq: ++this.seq,
      at: this.now(),
      server,
      direction,
      // Serialised and redacted on first read: a call that nobody watches costs no JSON.stringify.
      // Messages are not mutated after they are sent or parsed, so the text is the same later.
      get text() {
        return (text ??= redact(JSON.stringify(message)));
      },
      ...(typeof m.method === 'string' ? { method: m.method } : {}),
      ...(typeof m.id === 'string' || typeof m.id === 'number' ? { id: m.id } : {}),
    };
    this.entries.push(entry);
    // Trim in batches: splicing one entry off the front of a full log on every message is O(n).
    if (this.entries.length > this.capacity * 1.25) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(entry);
  }

  list(filter: { server?: string; afterSeq?: number } = {}): TrafficEntry[] {
    return this.entries.slice(-this.capacity).filter(
      (e) => (filter.server === undefined || e.server === filter.server) && e.seq > (filter.afterSeq ?? 0),
    );
  }

  onEntry(listener: (entry: TrafficEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Masks `Authorization`-like fields and every known secret value wherever they appear. */
export function createRedactor(secretValues: () => Iterable<string>): Redact {
  return (text) => {
    let out = text.replace(/("(?:authorization|proxy-authorization)"\s*:\s*")[^"]*(")/gi, '$1***$2');
    out = out.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g, '$1 ***');
    for (const value of secretValues()) {
      if (value.length >= 4) out = out.split(value).join('***');
    }
    return out;
  };
}
