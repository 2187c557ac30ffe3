import { join, resolve } from 'node:path';
import ms from 'ms';
import { defaultDataDir } from '../../host/paths';
import { LOG_FILE_NAME } from '../../host/log/harbor-log';
import { type LogEntry, LOG_LEVELS, isLogLevel } from '../../host/log/log-entry';
import { followLog, readLog, type LogFilter } from '../../host/log/log-reader';
import { securePrivateFolder } from '../../host/private-files';
import type { CliCommandCode, CliContext } from '../command';
import { EXIT, UsageError } from '../output';

/** `--since 10m`: a duration back from now, in the words `ms` reads (30s, 10m, 2h, 1d). */
function parseSince(text: string | undefined, now: number): number | undefined {
  if (text === undefined) return undefined;
  const span = /^\d+(\.\d+)?\s*[a-z]*$/i.test(text.trim()) ? ms(text.trim() as ms.StringValue) : undefined;
  if (span === undefined || !Number.isFinite(span) || span < 0) {
    throw new UsageError(`--since takes a duration such as 30s, 10m, 2h or 1d (got "${text}")`);
  }
  return now - span;
}

function filterFrom(options: CliContext['options'], now: number): LogFilter {
  const level = options.level;
  if (typeof level === 'string' && !isLogLevel(level)) {
    throw new UsageError(`--level takes one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  }
  return {
    ...(typeof options.server === 'string' ? { server: options.server } : {}),
    ...(typeof level === 'string' && isLogLevel(level) ? { level } : {}),
    ...(typeof options.since === 'string' ? { since: parseSince(options.since, now) } : {}),
  };
}

/** One entry as a person reads it: local time, level, area, server, message, code. */
export function formatEntry(entry: LogEntry): string {
  const at = new Date(entry.time);
  const time = Number.isNaN(at.getTime()) ? entry.time : at.toLocaleString();
  const error = typeof entry.error === 'object' && entry.error !== null && 'message' in entry.error ? `: ${String((entry.error as { message: unknown }).message)}` : '';
  return `${time} ${entry.level.toUpperCase().padEnd(5)} ${entry.area}${entry.server ? ` [${entry.server}]` : ''} ${entry.message}${error}${entry.code ? ` (${entry.code})` : ''}`;
}

export const logsCommand: CliCommandCode = {
  async run(ctx) {
    // Reading the log needs no Host: nothing is started, opened or connected.
    const dir = join(resolve(ctx.globals.dataDir ?? defaultDataDir()), 'logs');
    const path = join(dir, LOG_FILE_NAME);
    const filter = filterFrom(ctx.options, Date.now());
    const print = (entry: LogEntry) => ctx.out.result(entry, formatEntry(entry));
    const { entries, unreadable, offset } = readLog(path, filter);
    entries.forEach(print);
    if (unreadable > 0) ctx.out.info(`${unreadable} line(s) of ${path} are not log entries (a line cut short by a crash, or edited by hand) and were skipped`);
    if (ctx.options.follow !== true) {
      if (entries.length === 0 && !ctx.globals.json) ctx.out.info(`no log entries${Object.keys(filter).length ? ' match' : ''} in ${path}`);
      return EXIT.OK;
    }
    securePrivateFolder(dir);
    const following = followLog(path, filter, print, offset);
    try {
      await new Promise<void>((done) => {
        if (ctx.signal.aborted) done();
        ctx.signal.addEventListener('abort', () => done(), { once: true });
      });
      return EXIT.OK;
    } finally {
      await following.dispose();
    }
  },
};
