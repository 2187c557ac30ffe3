/**
 * One line of Harbor's own log (`DATA/logs/harbor.log`): a JSON object with `time` (ISO 8601),
 * `level`, `area` (the part of Harbor that wrote it), `server` when one is concerned, `message`,
 * `code` (a Harbor error code) and the error's own fields. Read back by `harbor logs`, which
 * parses every line and skips (and counts) what is not such an object, never trusting a cast.
 */
import { z } from 'zod';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LogEntry = z
  .object({
    time: z.string(),
    level: z.enum(LOG_LEVELS),
    area: z.string(),
    message: z.string(),
    server: z.string().optional(),
    code: z.string().optional(),
  })
  .passthrough();
export type LogEntry = z.infer<typeof LogEntry>;

/** What a writer gives the log: everything but the time, plus an error to describe. */
export interface LogRecord {
  readonly area: string;
  readonly message: string;
  readonly server?: string;
  readonly code?: string;
  /** The failure being reported: its code, message and (for errors Harbor does not know) stack go in. */
  readonly error?: unknown;
  /** More fields worth keeping (what was being done: a method, a URI, an attempt number). */
  readonly fields?: Readonly<Record<string, string | number | boolean | undefined>>;
}

export function levelRank(level: LogLevel): number {
  return LOG_LEVELS.indexOf(level);
}

export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** Parses one stored line; undefined for anything that is not a log entry (a torn last line, junk). */
export function parseLogLine(line: string): LogEntry | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined; // not JSON: the caller counts it as unreadable
  }
  const parsed = LogEntry.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
