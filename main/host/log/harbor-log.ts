/**
 * Harbor's own log: `DATA/logs/harbor.log`, one JSON object per line (see log-entry.ts), written
 * by the app, browser mode and the CLI alike through pino, owner-only, rotated by size, and every
 * line passed through the Host's redactor before it touches the disk (a log is the file people
 * attach to bug reports).
 *
 * pino is loaded on the first line written, not when the log is made: a one-shot command that
 * has nothing to report pays nothing for it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Logger as Pino } from 'pino';
import type * as PinoModule from 'pino';
import { HarborError } from '../errors';
import { type Disposable, markAsDisposed, trackDisposable } from '../lifecycle';
import type { LogLevel, LogRecord } from './log-entry';
import { RotatingFile } from './rotating-file';

export const LOG_FILE_NAME = 'harbor.log';
/** A few files of a few MB: enough for days of ordinary use, bounded however long Harbor runs. */
export const LOG_MAX_BYTES = 4 * 1024 * 1024;
export const LOG_KEEP = 3;

export interface HarborLogOptions {
  /** The folder: `DATA/logs`. */
  readonly dir: string;
  /** Masks secrets; the Host's `redactor.redact`. */
  readonly redact?: (text: string) => string;
  readonly maxBytes?: number;
  readonly keep?: number;
  /** Lines below this level are not written (default info). */
  readonly level?: LogLevel;
  /** Where a line that could not be written is reported once (default: stderr). */
  readonly onWriteFailure?: (error: unknown) => void;
}

/** The part of the log the rest of the Host takes: a port, so a test can hand its own. */
export interface LogSink {
  write(level: LogLevel, record: LogRecord): void;
}

/** An error's own fields, as the log keeps them: a known HarborError by code; anything else with its stack. */
function errorFields(error: unknown): { code?: string; error?: Record<string, string> } {
  if (error === undefined) return {};
  if (error instanceof HarborError) {
    return { code: error.code, error: { message: error.message, ...(error.detail ? { detail: error.detail } : {}) } };
  }
  if (error instanceof Error) {
    return { code: 'INTERNAL', error: { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } };
  }
  return { code: 'INTERNAL', error: { message: String(error) } };
}

export class HarborLog implements LogSink, Disposable {
  readonly path: string;
  /** Made with the first line: a Host that logs nothing creates no folder. */
  private file: RotatingFile | undefined;
  private redactText: (text: string) => string;
  private pino: Pino | undefined;
  private failed = false;
  private disposed = false;

  constructor(private readonly options: HarborLogOptions) {
    this.path = join(options.dir, LOG_FILE_NAME);
    this.redactText = options.redact ?? ((text) => text);
    trackDisposable(this);
  }

  /** The redactor may arrive after the log (the shell logs its start before the Host exists). */
  setRedactor(redact: (text: string) => string): void {
    this.redactText = redact;
  }

  write(level: LogLevel, record: LogRecord): void {
    if (this.disposed) return;
    const { code, error } = errorFields(record.error);
    const fields = {
      area: record.area,
      ...(record.server === undefined ? {} : { server: record.server }),
      ...((record.code ?? code) === undefined ? {} : { code: record.code ?? code }),
      ...(error === undefined ? {} : { error }),
      ...record.fields,
    };
    this.logger()[level](fields, record.message);
  }

  info(record: LogRecord): void {
    this.write('info', record);
  }

  warn(record: LogRecord): void {
    this.write('warn', record);
  }

  error(record: LogRecord): void {
    this.write('error', record);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
  }

  private logger(): Pino {
    if (this.pino) return this.pino;
    // Required here, not imported at the top (see the file's comment); synchronously, as writes are.
    const pino = createRequire(import.meta.url)('pino') as typeof PinoModule;
    this.pino = pino.pino(
      {
        level: this.options.level ?? 'info',
        base: undefined,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      { write: (line: string) => this.append(line) },
    );
    return this.pino;
  }

  private append(line: string): void {
    let text: string;
    try {
      text = this.redactText(line);
    } catch {
      // A redactor that throws must not let the raw text through: the line is replaced, not dropped.
      text = `${JSON.stringify({ time: new Date().toISOString(), level: 'warn', area: 'log', message: 'a log line was dropped: it could not be redacted' })}\n`;
    }
    try {
      this.file ??= new RotatingFile({ path: this.path, maxBytes: this.options.maxBytes ?? LOG_MAX_BYTES, keep: this.options.keep ?? LOG_KEEP });
      this.file.append(text);
    } catch (error) {
      // A full disk or a removed folder must never take Harbor down; it is said once, not per line.
      if (this.failed) return;
      this.failed = true;
      (this.options.onWriteFailure ?? ((e) => process.stderr.write(`harbor: cannot write ${this.path}: ${e instanceof Error ? e.message : String(e)}\n`)))(error);
    }
  }
}
