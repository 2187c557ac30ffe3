import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { isUnwritable, type DataAccess } from '../open-database';
import { openTasksDatabase } from './database';
import { ABANDONED_CODE, abandonedMessage, ownerGone, ownerOf, type OwnerKind } from './owner';
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
  private db: DatabaseSync;
  /** Set while the store reads a file it opened read-only. */
  private reopenForWriting: (() => DatabaseSync) | undefined;

  /** `onSetAside` tells the person a damaged file was moved aside (database.ts); by default on stderr. */
  /** This process as the follower of the tasks it saves (owner.ts). */
  private readonly owner: string | null;

  constructor(
    private readonly path: string,
    onSetAside: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
    ownerKind: OwnerKind = 'app',
    access: DataAccess = 'read-write',
  ) {
    this.db = openTasksDatabase(path, onSetAside, undefined, access);
    this.reopenForWriting = access === 'read-only' ? () => openTasksDatabase(path, onSetAside) : undefined;
    this.owner = ownerOf(ownerKind) ?? null;
    trackDisposable(this);
  }

  /**
   * Ends the unfinished tasks a `harbor` command followed and that command is gone (killed, or
   * crashed): nobody follows them any more. An app's or browser mode's tasks are left to the next
   * one, which follows them again.
   */
  endAbandoned(now: number): void {
    const rows = (this.db.prepare("SELECT server, task_id, owner FROM tasks WHERE ended_at IS NULL AND owner LIKE 'cli:%'").all() as { server: string; task_id: string; owner: string }[]).filter(
      (row) => row.owner !== this.owner && ownerGone(row.owner),
    );
    if (rows.length > 0 && !this.writable()) return;
    for (const row of rows) {
      const message = abandonedMessage(row.owner);
      this.db
        .prepare("UPDATE tasks SET status = 'failed', ended_at = ?, status_message = ?, error = ? WHERE server = ? AND task_id = ? AND ended_at IS NULL AND owner = ?")
        .run(now, message, JSON.stringify({ code: ABANDONED_CODE, message }), row.server, row.task_id, row.owner);
    }
  }

  /**
   * Makes a read-only store (a command that only reads) able to write, for the one write a reader
   * does: ending abandoned tasks. False when the folder cannot be written: they are shown as they
   * are, to be ended by the next Harbor that can write (nothing is lost, and the list still shows).
   */
  private writable(): boolean {
    if (!this.reopenForWriting) return true;
    let db: DatabaseSync;
    try {
      db = this.reopenForWriting();
    } catch (error) {
      if (isUnwritable(error)) return false;
      throw error;
    }
    this.db.close();
    this.db = db;
    this.reopenForWriting = undefined;
    return true;
  }

  /** Writes the task as it is now (a new one, or every field of a known one). */
  save(record: TaskRecord): void {
    const values: Record<string, SQLInputValue> = { ...columns(record), owner: this.owner };
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

  /** What `--refresh` asks a server about: the tasks not seen to end, including those ended only because their follower is gone. */
  unseen(): TaskRecord[] {
    const rows = this.db.prepare("SELECT * FROM tasks WHERE ended_at IS NULL OR json_extract(error, '$.code') = ? ORDER BY started_at").all(ABANDONED_CODE);
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
