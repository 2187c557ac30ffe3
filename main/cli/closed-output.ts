import { Writable } from 'node:stream';

/**
 * The reader of Harbor's output went away (`harbor servers --json | head -1`): the command is
 * stopped with this as the abort reason, and the run ends quietly with exit 0 — the reader got
 * what it wanted, and `set -o pipefail` scripts must not fail because `head` stopped reading.
 */
export class OutputClosedError extends Error {
  constructor() {
    super('the reader of the output went away');
    this.name = 'OutputClosedError';
  }
}

/** Errors that mean "nobody reads this stream any more", not a fault of Harbor's. */
function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
}

/**
 * Wraps the process's stdout or stderr so that a failed write never crashes the CLI with an
 * unhandled 'error' event: the first failure calls `onEnd` once — with no argument when the reader
 * went away (EPIPE), with the error otherwise (a full disk) — and later writes are dropped.
 */
export function closableOutput(target: NodeJS.WritableStream, onEnd: (error?: Error) => void): Writable {
  let ended = false;
  const end = (error: Error) => {
    if (ended) return;
    ended = true;
    onEnd(isClosedPipe(error) ? undefined : error);
  };
  // The stream itself emits the error too: without a listener Node would throw it.
  target.on('error', end);
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      if (ended) return callback();
      target.write(chunk, (error?: Error | null) => {
        if (error) end(error);
        callback();
      });
    },
  });
}

/** The CLI's stdout and stderr, guarded: see closableOutput. */
export interface GuardedOutput {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** True once the reader of stdout went away: the run then ends quietly, with exit 0. */
  readonly readerGone: boolean;
  /** A write to stdout that failed for another reason (the run then fails). */
  readonly failure: Error | undefined;
}

/**
 * Guards both streams. When the reader of stdout goes away, `stop` is called with an
 * OutputClosedError and stderr falls silent too: the command's own reaction to being stopped
 * ("cancelled…") is noise for a pipeline that simply stopped reading. A stderr nobody reads is
 * dropped without a word (there is nobody to tell).
 */
export function guardOutput(out: NodeJS.WritableStream, err: NodeJS.WritableStream, stop: (reason: Error) => void): GuardedOutput {
  let readerGone = false;
  let failure: Error | undefined;
  const stdout = closableOutput(out, (error) => {
    if (error) failure = error;
    else readerGone = true;
    stop(error ?? new OutputClosedError());
  });
  const stderrSink = closableOutput(err, () => undefined);
  const stderr = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      if (readerGone) return callback();
      stderrSink.write(chunk, () => callback());
    },
  });
  return {
    stdout,
    stderr,
    get readerGone() {
      return readerGone;
    },
    get failure() {
      return failure;
    },
  };
}
