import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { RingLog, type RingLimits } from '../ring-log';
import { jsonSizeAtMost, previewText } from '../text-preview';
import { wireTextOf } from './wire-text';

/** How much of one message the log keeps: a larger one is kept as this many characters and "… N KB more". */
export const TRAFFIC_PREVIEW_CHARS = 16 * 1024;
/** The whole log: 2,000 messages or 16 MiB of them (characters of JSON), whichever comes first. */
export const TRAFFIC_LIMITS: RingLimits = { maxEntries: 2000, maxBytes: 16 * 1024 * 1024 };

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
 * One recorded message, held ONCE: the message itself or the text its transport wrote or read
 * for it (small, not read yet — see wire-text.ts; the text, where there is one, is what was on
 * the wire, its length the exact size), or its redacted text (a bounded preview), never two of
 * them. A small message is serialised (where no text came with it) and redacted on first read,
 * so a call nobody watches costs no JSON.stringify (messages are not mutated after they are sent
 * or parsed, so the text is the same later); the message is let go then. A large one (a
 * screenshot, a file, an app's HTML) is redacted whole — a secret cut at the edge would not be
 * recognised — and cut to its preview at once, so the log never holds its body.
 * A class, not an object literal with a getter: this runs for every message in and out, and the
 * literal costs several times more to build.
 */
class RecordedMessage implements TrafficEntry {
  readonly method?: string;
  readonly id?: string | number;
  /** About how many characters it holds: what the log's byte cap counts. */
  readonly size: number;
  private textCache: string | undefined;
  private message: JSONRPCMessage | undefined;
  /** The transport's text of the message, not redacted yet. */
  private wireText: string | undefined;

  constructor(
    readonly seq: number,
    readonly at: number,
    readonly server: string,
    readonly direction: 'out' | 'in',
    message: JSONRPCMessage,
    private readonly redact: Redact,
  ) {
    const m = message as { method?: unknown; id?: unknown };
    if (typeof m.method === 'string') this.method = m.method;
    if (typeof m.id === 'string' || typeof m.id === 'number') this.id = m.id;
    const wireText = wireTextOf(message);
    if (wireText !== undefined) {
      if (wireText.length > TRAFFIC_PREVIEW_CHARS) {
        this.textCache = this.preview(wireText);
        this.size = this.textCache.length;
      } else {
        this.wireText = wireText;
        this.size = wireText.length;
      }
      return;
    }
    const estimate = jsonSizeAtMost(message, TRAFFIC_PREVIEW_CHARS);
    if (estimate > TRAFFIC_PREVIEW_CHARS) {
      this.textCache = this.preview(JSON.stringify(message));
      this.size = this.textCache.length;
    } else {
      this.message = message;
      this.size = estimate;
    }
  }

  get text(): string {
    if (this.textCache === undefined) {
      this.textCache = this.preview(this.wireText ?? JSON.stringify(this.message));
      this.message = undefined;
      this.wireText = undefined;
    }
    return this.textCache;
  }

  private preview(text: string): string {
    return previewText(this.redact(text), TRAFFIC_PREVIEW_CHARS);
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
 * Every JSON-RPC message in and out, per server, bounded by count and by size (oldest dropped
 * first; a large message kept as a preview), with secrets redacted before any text is stored:
 * the Activity view and `--trace` read from here.
 */
export class TrafficLog {
  private readonly entries: RingLog<RecordedMessage>;
  private seq = 0;
  private readonly listeners = new Set<(entry: TrafficEntry) => void>();

  constructor(
    private readonly redact: Redact = (t) => t,
    limits: RingLimits = TRAFFIC_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new RingLog(limits, (entry) => entry.size);
  }

  record(server: string, direction: 'out' | 'in', message: JSONRPCMessage): void {
    const entry = new RecordedMessage(++this.seq, this.now(), server, direction, message, this.redact);
    this.entries.push(entry);
    for (const listener of this.listeners) listener(entry);
  }

  /** About how many characters the log holds (its byte cap counts these). */
  get retainedBytes(): number {
    return this.entries.bytes;
  }

  /** Plain objects (text included), safe to send over IPC or a WebSocket. */
  list(filter: { server?: string; afterSeq?: number } = {}): TrafficEntry[] {
    const after = filter.afterSeq ?? 0;
    return this.entries.filter((e) => (filter.server === undefined || e.server === filter.server) && e.seq > after).map(plainTrafficEntry);
  }

  /** Listeners get the recorded entry itself: read `text` only when it is needed. */
  onEntry(listener: (entry: TrafficEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
