import type { LogLevel, ServerLogEntry } from '../../../../preload/contract';

/** The MCP levels, least severe first. */
export const LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A log message's data as one line of text: a string as it is, anything else as JSON. */
export function logText(data: unknown): string {
  if (typeof data === 'string') return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

export interface LogFilter {
  /** Show this level and the more severe ones (undefined: every level). */
  readonly atLeast?: LogLevel;
  /** Words that must all appear in the logger or the data, ignoring case. */
  readonly search: string;
}

export function filterLogs(entries: readonly ServerLogEntry[], filter: LogFilter): ServerLogEntry[] {
  const min = filter.atLeast ? LEVELS.indexOf(filter.atLeast) : 0;
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((entry) => {
    if (LEVELS.indexOf(entry.level) < min) return false;
    if (words.length === 0) return true;
    const haystack = `${entry.logger ?? ''} ${logText(entry.data)}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
