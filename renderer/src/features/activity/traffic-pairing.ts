import type { TrafficEntryData } from '../../../../preload/contract';

/** A message as the Activity view shows it: a request and its response know each other. */
export interface TrafficRowData extends TrafficEntryData {
  /** For a response: the request's method (the message itself has none). */
  readonly answers?: string;
  /** `method` or, for a response, `answers`: what the method filter matches. */
  readonly label: string;
  /** A response that failed (`error` set, or a tool result with `isError`), or the request it answers. */
  readonly isError: boolean;
  /** The other half of a request/response pair, by sequence number. */
  readonly pairSeq?: number;
  /** From the request to its response, on both rows of the pair. */
  readonly latencyMs?: number;
}

/** What a response changes on the request row it answers. */
export interface RequestAnswered {
  readonly requestSeq: number;
  readonly patch: Pick<TrafficRowData, 'pairSeq' | 'latencyMs' | 'isError'>;
}

interface OpenRequest {
  readonly seq: number;
  readonly at: number;
  readonly method: string;
}

const MAX_OPEN = 10_000;

/**
 * Pairs each response with its request: same server, same JSON-RPC id, the other direction (a
 * request Harbor sent is answered by the server, and a server's own request — sampling,
 * elicitation — by Harbor). A request waits until answered; the oldest unanswered are forgotten.
 */
export class TrafficPairing {
  private readonly open = new Map<string, OpenRequest>();

  describe(entry: TrafficEntryData): { readonly row: TrafficRowData; readonly answered?: RequestAnswered } {
    const id = entry.id === undefined ? undefined : String(entry.id);
    if (entry.method) {
      if (id !== undefined) {
        // Insertion order is age: a reused id moves to the end.
        const key = pairKey(entry.server, entry.direction, id);
        this.open.delete(key);
        this.open.set(key, { seq: entry.seq, at: entry.at, method: entry.method });
        if (this.open.size > MAX_OPEN) this.open.delete(this.open.keys().next().value!);
      }
      return { row: { ...entry, label: entry.method, isError: false } };
    }
    // A JSON-RPC error, or a tool call that failed (a result with isError).
    const isError = /"error"\s*:\s*\{|"isError"\s*:\s*true/.test(entry.text);
    const key = id === undefined ? undefined : pairKey(entry.server, entry.direction === 'out' ? 'in' : 'out', id);
    const request = key ? this.open.get(key) : undefined;
    if (!request || !key) {
      return { row: { ...entry, label: id !== undefined ? 'response' : 'message', isError } };
    }
    this.open.delete(key);
    const latencyMs = Math.max(0, entry.at - request.at);
    return {
      row: { ...entry, answers: request.method, label: `${request.method} (response)`, isError, pairSeq: request.seq, latencyMs },
      answered: { requestSeq: request.seq, patch: { pairSeq: entry.seq, latencyMs, isError } },
    };
  }
}

function pairKey(server: string, direction: 'out' | 'in', id: string): string {
  return `${server}\u0000${direction}\u0000${id}`;
}

/** "8 ms", "1.2 s": how long a request waited for its answer. */
export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A row of the Activity list: one message, or a request with its response folded in. */
export interface ShownTrafficRow extends TrafficRowData {
  readonly response?: TrafficRowData;
}

/**
 * One row per request/response pair: a response whose request is among `rows` (the filtered list)
 * is folded into the request's row; a response whose request is filtered out or forgotten stays a
 * row of its own, and notifications are single rows. `rows` are in sequence order.
 */
export function foldPairs(rows: readonly TrafficRowData[]): ShownTrafficRow[] {
  const requests = new Set<number>();
  const responses = new Map<number, TrafficRowData>();
  for (const row of rows) {
    if (row.method) requests.add(row.seq);
    else if (row.pairSeq !== undefined) responses.set(row.pairSeq, row);
  }
  const shown: ShownTrafficRow[] = [];
  for (const row of rows) {
    if (row.method) {
      const response = responses.get(row.seq);
      shown.push(response ? { ...row, response } : row);
    } else if (row.pairSeq === undefined || !requests.has(row.pairSeq)) {
      shown.push(row);
    }
  }
  return shown;
}
