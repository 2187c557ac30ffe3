import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { openPrivateDatabase } from '../open-database';
import { parseTaskRow, type TaskRecord } from './rows';

/** Finished tasks kept for the Tasks panel and `harbor tasks`; older ones are forgotten. */
const KEEP_FINISHED = 500;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  server TEXT NOT NULL,
  task_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  era TEXT NOT NULL,
  status TEXT NOT NULL,
  status_message TEXT,
  created_at TEXT NOT NULL,
  last_updated_at TEXT NOT NULL,
  ttl_ms INTEGER,
  has_ttl INTEGER NOT NULL DEFAULT 0,
  poll_interval_ms INTEGER,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  result TEXT,
  error TEXT,
  origin TEXT,
  answered_keys TEXT NOT NULL DEFAULT '[]',
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (server, task_id)
);
CREATE INDEX IF NOT EXISTS tasks_by_start ON tasks(started_at);
`;

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

  constructor(private readonly path: string) {
    this.db = openPrivateDatabase(path);
    this.db.exec(SCHEMA);
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
