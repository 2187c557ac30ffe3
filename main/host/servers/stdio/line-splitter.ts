/**
 * Splits a byte stream into newline-delimited lines AT THE BYTE LEVEL and decodes each complete
 * line as UTF-8. Decoding chunk by chunk would corrupt a multibyte character whose bytes arrive in
 * two reads ("👋" → "\uFFFD\uFFFD"); 0x0A never occurs inside a UTF-8 sequence, so splitting
 * bytes first is always safe. A line longer than `maxLineBytes` is dropped (and reported) without
 * ever being buffered whole.
 */
export interface LineSplitterHandlers {
  line: (line: string) => void;
  /** A line was dropped for being over the limit; `bytes` is how long it was. */
  oversize: (bytes: number) => void;
}

const NEWLINE = 0x0a;

export class ByteLineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an over-long line being skipped until its newline, or -1 when not skipping. */
  private skipping = -1;

  constructor(
    private readonly maxLineBytes: number,
    private readonly handlers: LineSplitterHandlers,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) {
        this.hold(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping >= 0) {
        const bytes = this.skipping + piece.length;
        this.skipping = -1;
        this.handlers.oversize(bytes);
        continue;
      }
      const total = this.pendingBytes + piece.length;
      if (total > this.maxLineBytes) {
        this.reset();
        this.handlers.oversize(total);
        continue;
      }
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece], total);
      this.reset();
      this.emit(line);
    }
  }

  /** End of stream: a last line without a newline still counts. */
  end(): void {
    if (this.skipping >= 0) {
      const bytes = this.skipping;
      this.skipping = -1;
      this.handlers.oversize(bytes);
      return;
    }
    if (this.pendingBytes === 0) return;
    const line = Buffer.concat(this.pending, this.pendingBytes);
    this.reset();
    this.emit(line);
  }

  private hold(rest: Buffer): void {
    if (this.skipping >= 0) {
      this.skipping += rest.length;
      return;
    }
    if (this.pendingBytes + rest.length > this.maxLineBytes) {
      this.skipping = this.pendingBytes + rest.length;
      this.reset();
      return;
    }
    // Copy, so a short partial line does not keep its whole (up to 64 KiB) read chunk alive.
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private emit(bytes: Buffer): void {
    let text = bytes.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    this.handlers.line(text);
  }
}
