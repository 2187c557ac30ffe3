import { HarborError } from '../host/errors';
import { UsageError } from './output';

export interface PromptOptions {
  readonly signal: AbortSignal;
  /** Echo nothing (a password, a token). */
  readonly hidden?: boolean;
  /** What Ctrl-C or an interrupt leaves undone, e.g. "nothing was stored". */
  readonly undone?: string;
  readonly maxLength?: number;
}

/**
 * Reads one line from the terminal (stdin must be a TTY), the prompt on stderr so stdout stays
 * the command's output. Raw mode, so a hidden value is never echoed: Enter ends, Ctrl-C cancels,
 * Backspace deletes.
 */
export function promptLine(prompt: string, options: PromptOptions): Promise<string> {
  const { signal, hidden = false, undone = 'nothing was changed', maxLength = 64 * 1024 } = options;
  const stdin = process.stdin;
  // Raw mode before the prompt shows: what the person types once they see it is never echoed by
  // the terminal itself (typed-ahead keys would be, while the terminal still echoes).
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new UsageError(`cancelled: ${undone}.`));
        if (ch === '\u007f' || ch === '\b') {
          if (value && !hidden) process.stderr.write('\b \b');
          value = [...value].slice(0, -1).join('');
        } else {
          value += ch;
          if (!hidden) process.stderr.write(ch);
        }
        if (value.length > maxLength) return finish(new HarborError('BAD_REQUEST', `The value is too long: ${undone}.`));
      }
    };
    const onAbort = () => finish(new UsageError(`interrupted: ${undone}.`));
    stdin.resume();
    stdin.on('data', onData);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
