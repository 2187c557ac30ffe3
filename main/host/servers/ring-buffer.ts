import { RingLog } from '../ring-log';

/**
 * The last N lines of a text stream (a server's stderr), on the Host's one ring log. Bounded in
 * lines, in line length AND in total size: a server that writes megabytes without a newline must
 * not grow the host's memory, so an over-long partial line is cut and kept as a line of its own.
 */
export class LineRing {
  private readonly ring: RingLog<string>;
  private partial = '';

  constructor(
    readonly maxLines = 500,
    readonly maxLineChars = 4000,
    /** Characters of lines kept in all (the default: a quarter of what 500 full lines would take). */
    readonly maxBytes = 512 * 1024,
  ) {
    this.ring = new RingLog({ maxEntries: maxLines, maxBytes }, (line) => line.length);
  }

  /** Characters of complete lines held (the cap `maxBytes` counts these). */
  get bytes(): number {
    return this.ring.bytes;
  }

  /**
   * Appends a chunk: splits on newlines (a trailing `\r` is dropped), keeps the unfinished last
   * line until its newline arrives. Returns the lines this chunk completed, in order.
   */
  push(chunk: string): string[] {
    const completed: string[] = [];
    let text = this.partial + chunk;
    let newline = text.indexOf('\n');
    while (newline >= 0) {
      completed.push(stripCr(text.slice(0, newline)));
      text = text.slice(newline + 1);
      newline = text.indexOf('\n');
    }
    while (text.length > this.maxLineChars) {
      completed.push(`${text.slice(0, this.maxLineChars)} …[line cut]`);
      text = text.slice(this.maxLineChars);
    }
    this.partial = text;
    for (const line of completed) this.append(line);
    return completed;
  }

  /** Adds one whole line (e.g. a host note) without touching a pending partial line. */
  pushLine(line: string): void {
    this.append(line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)} …[line cut]` : line);
  }

  /** Every kept line, oldest first; an unfinished last line is included. */
  lines(): string[] {
    return this.partial === '' ? this.ring.toArray() : [...this.ring.toArray(), stripCr(this.partial)];
  }

  /** The last `n` lines joined with newlines (what an error message shows). */
  tail(n = 40): string {
    if (n <= 0) return '';
    if (this.partial === '') return this.ring.last(n).join('\n');
    return [...this.ring.last(n - 1), stripCr(this.partial)].join('\n');
  }

  private append(line: string): void {
    this.ring.push(line);
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
