import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { openTasksDatabase } from './database';
import { parseTaskRow, type TaskRecord } from './rows';

/** Finished tasks kept for the Tasks panel and `harbor tasks`; older ones are forgotten. */
const KEEP_FINISHED = 500;

/** The columns of a record, as written. */
function columns(record: TaskRecord): Record<string, SQLInputValue> {
  return {
    server: record.server,
    task_id: record.taskId,
    tool: record.tool,
    era: record.era,
    status: record.status,
    status_message: record.statusMessage ?? null,
    created_at: record.createdAt,
    last_updated_at: record.lastUpdatedAt,
    ttl_ms: record.ttlMs ?? null,
    has_ttl: record.ttlMs !== undefined ? 1 : 0,
    poll_interval_ms: record.pollIntervalMs ?? null,
    started_at: record.startedAt,
    ended_at: record.endedAt ?? null,
    result: record.result ? JSON.stringify(record.result) : null,
    error: record.error ? JSON.stringify(record.error) : null,
    origin: record.origin ? JSON.stringify(record.origin) : null,
    answered_keys: JSON.stringify(record.answeredKeys),
    cancel_requested: record.cancelRequested ? 1 : 0,
    delivered: record.delivered ? 1 : 0,
  };
}

/**
 * The tasks Harbor follows, in SQLite in the data folder (tasks.db, owner-only like every
 * database there): which server and tool, the status and its message, and the result or error
 * once it ended. A task that has not ended when Harbor stops is followed again on the next start.
 */
export class TaskStore implements Disposable {
  private readonly db: DatabaseSync;

  /** `onSetAside` tells the person a damaged file was moved aside (database.ts); by default on stderr. */
  constructor(
    private readonly path: string,
    onSetAside: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
  ) {
    this.db = openTasksDatabase(path, onSetAside);
    trackDisposable(this);
  }

  /** Writes the task as it is now (a new one, or every field of a known one). */
  save(record: TaskRecord): void {
    const values = columns(record);
    const names = Object.keys(values);
    this.db
      .prepare(`INSERT OR REPLACE INTO tasks (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`)
      .run(...names.map((name) => values[name]!));
  }

  get(server: string, taskId: string): TaskRecord | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE server = ? AND task_id = ?').get(server, taskId);
    return row ? parseTaskRow(row, this.path) : undefined;
  }

  /** Newest first; one server's with `server`. */
  list(server?: string): TaskRecord[] {
    const rows =
      server === undefined
        ? this.db.prepare('SELECT * FROM tasks ORDER BY started_at DESC, rowid DESC').all()
        : this.db.prepare('SELECT * FROM tasks WHERE server = ? ORDER BY started_at DESC, rowid DESC').all(server);
    return rows.map((row) => parseTaskRow(row, this.path));
  }

  /** Tasks that have not ended: followed again when Harbor starts. */
  unfinished(): TaskRecord[] {
    const rows = this.db.prepare('SELECT * FROM tasks WHERE ended_at IS NULL ORDER BY started_at').all();
    return rows.map((row) => parseTaskRow(row, this.path));
  }

  /** Forgets the oldest finished tasks beyond what the panel keeps. */
  prune(keep = KEEP_FINISHED): void {
    this.db
      .prepare(
        'DELETE FROM tasks WHERE ended_at IS NOT NULL AND rowid NOT IN (SELECT rowid FROM tasks WHERE ended_at IS NOT NULL ORDER BY started_at DESC LIMIT ?)',
      )
      .run(keep);
  }

  dispose(): void {
    markAsDisposed(this);
    this.db.close();
  }
}
