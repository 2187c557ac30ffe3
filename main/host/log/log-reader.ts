/**
 * Reads Harbor's own log back for `harbor logs`: the rotated files oldest first, then the current
 * one; each line parsed (a torn or foreign line is counted, never shown as if it were an entry);
 * filtered by server, lowest level and age. `follow` then reports lines as they are appended,
 * across a rotation (the file is replaced: reading starts again at the new file's beginning).
 */
import { existsSync, readFileSync, statSync, openSync, readSync, closeSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type Disposable, toDisposable } from '../lifecycle';
import { type LogEntry, type LogLevel, levelRank, parseLogLine } from './log-entry';
import { LOG_KEEP } from './harbor-log';
import { RotatingFile } from './rotating-file';

export interface LogFilter {
  readonly server?: string;
  /** The lowest level shown. */
  readonly level?: LogLevel;
  /** Only entries at or after this time (ms since the epoch). */
  readonly since?: number;
}

export interface LogRead {
  readonly entries: LogEntry[];
  /** Lines that were not log entries (a line torn by a crash, a file edited by hand). */
  readonly unreadable: number;
  /** How far into the current file the read went (its last whole line): where following starts. */
  readonly offset: number;
}

export function matches(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.server !== undefined && entry.server !== filter.server) return false;
  if (filter.level !== undefined && levelRank(entry.level) < levelRank(filter.level)) return false;
  if (filter.since !== undefined) {
    const at = Date.parse(entry.time);
    if (!Number.isFinite(at) || at < filter.since) return false;
  }
  return true;
}

/** Parses the whole lines of `text`; returns how many characters they took (a torn last line is left for later). */
function parseInto(text: string, filter: LogFilter, into: { entries: LogEntry[]; unreadable: number }): number {
  const end = text.lastIndexOf('\n') + 1;
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue;
    const entry = parseLogLine(line);
    if (!entry) into.unreadable++;
    else if (matches(entry, filter)) into.entries.push(entry);
  }
  return end;
}

/** Every stored entry that passes the filter, oldest first. A missing log is an empty one. */
export function readLog(path: string, filter: LogFilter, keep = LOG_KEEP): LogRead {
  const read = { entries: [] as LogEntry[], unreadable: 0 };
  for (const file of RotatingFile.rotatedPaths(path, keep).reverse()) {
    if (existsSync(file)) parseInto(readFileSync(file, 'utf8'), filter, read);
  }
  let offset = 0;
  if (existsSync(path)) {
    const current = readFileSync(path);
    offset = Buffer.byteLength(current.toString('utf8').slice(0, parseInto(current.toString('utf8'), filter, read)));
  }
  return { ...read, offset };
}

/**
 * Calls `onEntry` for each entry appended to the log after byte `from` of the current file (what
 * readLog returned). Watches the folder: the file itself is replaced when it rotates, and may not
 * exist yet. The folder must exist.
 */
export function followLog(path: string, filter: LogFilter, onEntry: (entry: LogEntry) => void, from: number): Disposable {
  let offset = from;
  let partial = '';
  const readNew = (): void => {
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return; // between a rotation's two renames: the next event reads the new file
    }
    if (size < offset) {
      offset = 0; // rotated: a new file
      partial = '';
    }
    if (size === offset) return;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(size - offset);
      readSync(fd, buffer, 0, buffer.length, offset);
      offset = size;
      const text = partial + buffer.toString('utf8');
      const sink = { entries: [] as LogEntry[], unreadable: 0 };
      partial = text.slice(parseInto(text, filter, sink));
      sink.entries.forEach(onEntry);
    } finally {
      closeSync(fd);
    }
  };
  const name = basename(path);
  const watcher = watch(dirname(path), (_event, file) => {
    if (file === null || file === name) readNew();
  });
  // Lines written between the read and the watch starting raised no event: read them now.
  readNew();
  return toDisposable(() => watcher.close());
}
