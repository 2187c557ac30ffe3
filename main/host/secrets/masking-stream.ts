import { Writable } from 'node:stream';
import type { Redactor } from './redactor';

/**
 * A stream that masks every secret value the redactor knows before passing text on: the CLI
 * writes all of its stdout and stderr through two of these, so nothing it prints (a tool result
 * echoing a token, an error quoting a server's stderr) shows a secret. The CLI writes whole lines
 * per call, so a value is never split across two writes.
 */
export function maskingStream(target: NodeJS.WritableStream, redactor: Redactor): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      target.write(redactor.mask(text), (error?: Error | null) => callback(error ?? null));
    },
  });
}
