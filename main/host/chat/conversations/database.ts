import { DatabaseSync } from 'node:sqlite';
import { HarborError } from '../../errors';
import { preparePrivateDatabase } from '../../private-files';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  tool_mode TEXT
);
CREATE TABLE IF NOT EXISTS turns (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  model TEXT,
  owner_pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  steps INTEGER NOT NULL DEFAULT 0,
  note TEXT,
  error_code TEXT,
  error_message TEXT
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, started_at);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
CREATE TABLE IF NOT EXISTS tool_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  call_id TEXT NOT NULL,
  name TEXT NOT NULL,
  server TEXT,
  tool TEXT,
  arguments TEXT NOT NULL,
  status TEXT NOT NULL,
  approval TEXT,
  result TEXT,
  error_code TEXT,
  error_message TEXT,
  truncated_bytes INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX IF NOT EXISTS tool_calls_by_turn ON tool_calls(turn_id, id);
`;

/**
 * Opens (creating) the conversations database: WAL, foreign keys, the schema checked and brought
 * up to date. A database from a newer Harbor is refused, never altered. Turns a crashed run left
 * "running" are marked interrupted before anything reads them.
 */
export function openConversationDatabase(path: string, now: () => number): DatabaseSync {
  preparePrivateDatabase(path);
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new HarborError('CONFIG_IO', `${path} was written by a newer Harbor (schema ${version}). Update Harbor to open these conversations.`);
  }
  db.exec(SCHEMA);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  recoverInterrupted(db, now);
  return db;
}

/** Runs `fn` in one write transaction: all of it is stored, or none. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Crash recovery: a turn left "running" by a process that is gone (or by this process, which has
 * just opened the database and so runs none) is marked interrupted, and its unfinished tool
 * calls as cancelled. A turn another live Harbor is running is left alone.
 */
function recoverInterrupted(db: DatabaseSync, now: () => number): void {
  const running = db.prepare("SELECT id, owner_pid FROM turns WHERE status = 'running'").all() as { id: string; owner_pid: number }[];
  for (const turn of running) {
    if (isAlive(turn.owner_pid) && turn.owner_pid !== process.pid) continue;
    db.prepare("UPDATE turns SET status = 'interrupted', ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), turn.id);
    db.prepare(
      "UPDATE tool_calls SET status = 'error', error_code = 'CANCELLED', error_message = 'Harbor stopped before this call finished.', ended_at = COALESCE(ended_at, ?) WHERE turn_id = ? AND status NOT IN ('done', 'error')",
    ).run(now(), turn.id);
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
