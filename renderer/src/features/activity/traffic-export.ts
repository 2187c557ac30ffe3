import type { TrafficRowData } from './traffic-pairing';

/**
 * The rows as JSON lines, one message a line: when, which server, which way, the pairing, and the
 * message itself as JSON (as text when it was not JSON). Secrets stay masked as shown.
 */
export function trafficAsJsonLines(rows: readonly TrafficRowData[]): string {
  return rows
    .map((row) =>
      JSON.stringify({
        seq: row.seq,
        at: new Date(row.at).toISOString(),
        server: row.server,
        direction: row.direction,
        ...(row.method ? { method: row.method } : {}),
        ...(row.answers ? { answers: row.answers } : {}),
        ...(row.id !== undefined ? { id: row.id } : {}),
        ...(row.pairSeq !== undefined ? { pairSeq: row.pairSeq } : {}),
        ...(row.latencyMs !== undefined ? { latencyMs: row.latencyMs } : {}),
        ...(row.isError ? { error: true } : {}),
        message: parseOrText(row.text),
      }),
    )
    .map((line) => `${line}\n`)
    .join('');
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
