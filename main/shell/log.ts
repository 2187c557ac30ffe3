/**
 * The app's log file, in the OS-conventional place (`app.getPath('logs')`: ~/Library/Logs/Harbor,
 * %APPDATA%\Harbor\logs, ~/.config/Harbor/logs), rotated by size and with every line passed
 * through the Host's redactor first: a log is the file people attach to bug reports, so a secret
 * Harbor resolved must never reach it.
 *
 * Writes are synchronous and small: the lines that matter most are the last ones before a crash
 * or an OS shutdown, and an async queue would lose exactly those.
 */
import { join } from 'node:path';
import { toDisposable, type Disposable } from '../host/lifecycle';
import { RotatingFile } from '../host/log/rotating-file';

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogOptions {
  /** The folder (app.getPath('logs')). */
  readonly dir: string;
  readonly fileName?: string;
  /** Rotate when the current file would grow past this (default 1 MiB). */
  readonly maxBytes?: number;
  /** Rotated files kept beside the current one: harbor.1.log … harbor.N.log (default 3). */
  readonly keep?: number;
  /** Masks secrets; the Host's `redactor.redact` once the Host exists. */
  readonly redact?: (text: string) => string;
  readonly now?: () => Date;
}

export interface Logger {
  info(message: string, error?: unknown): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

function describe(error: unknown): string {
  if (error === undefined) return '';
  if (error instanceof Error) return ` — ${error.name}: ${error.message}${error.stack ? `\n${error.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
  return ` — ${String(error)}`;
}

export class RotatingLog implements Logger {
  readonly path: string;
  private readonly file: RotatingFile;
  private readonly now: () => Date;
  private redactText: (text: string) => string;

  constructor(options: LogOptions) {
    this.path = join(options.dir, options.fileName ?? 'harbor.log');
    this.file = new RotatingFile({ path: this.path, maxBytes: options.maxBytes ?? 1024 * 1024, keep: options.keep ?? 3 });
    this.now = options.now ?? (() => new Date());
    this.redactText = options.redact ?? ((text) => text);
  }

  /** The redactor arrives with the Host, after the first lines (startup) were written. */
  setRedactor(redact: (text: string) => string): void {
    this.redactText = redact;
  }

  info(message: string, error?: unknown): void {
    this.write('info', message, error);
  }

  warn(message: string, error?: unknown): void {
    this.write('warn', message, error);
  }

  error(message: string, error?: unknown): void {
    this.write('error', message, error);
  }

  write(level: LogLevel, message: string, error?: unknown): void {
    let line: string;
    try {
      line = `${this.now().toISOString()} ${level.toUpperCase().padEnd(5)} ${this.redactText(`${message}${describe(error)}`)}\n`;
    } catch {
      // A redactor that throws must not let the raw text through.
      line = `${this.now().toISOString()} ${level.toUpperCase().padEnd(5)} (a log line was dropped: it could not be redacted)\n`;
    }
    try {
      this.file.append(line);
    } catch {
      // A full disk or a removed folder must never take the app down with it.
    }
  }
}

/**
 * Copies console.warn / console.error into the log (the shell's modules and Electron's own
 * warnings write there); disposing restores the console.
 */
export function mirrorConsole(target: Pick<Console, 'warn' | 'error'>, log: Logger): Disposable {
  const { warn, error } = target;
  const text = (a: unknown): string => {
    if (a instanceof Error) return `${a.name}: ${a.message}`;
    if (typeof a === 'string') return a;
    try {
      return JSON.stringify(a) ?? String(a);
    } catch {
      return String(a); // circular
    }
  };
  const join = (args: unknown[]) => args.map(text).join(' ');
  target.warn = (...args: unknown[]) => {
    warn.apply(target, args);
    log.warn(join(args));
  };
  target.error = (...args: unknown[]) => {
    error.apply(target, args);
    log.error(join(args));
  };
  return toDisposable(() => {
    target.warn = warn;
    target.error = error;
  });
}
