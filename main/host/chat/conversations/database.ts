import type { DatabaseSync } from 'node:sqlite';
import { processAlive } from '../../process-alive';
import { HarborError } from '../../errors';
import { openPrivateDatabase, rollbackIfOpen } from '../../open-database';

/**
 * The schema's version, in SQLite's `user_version`, and the steps that bring an older file up to
 * it, in order: step N takes a file of version N to N + 1. 1: conversations, turns, messages and
 * tool calls. 2: turns form a tree (an edited or regenerated message starts a branch beside the
 * old one; the conversation remembers the branch shown) and user messages keep their files.
 * 3: a conversation remembers its toolset (the registry's name; none: every tool).
 */
export const SCHEMA_VERSION = 4;

const SCHEMA_1 = `
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

/** Version 1 → 2: a conversation's turns, one after another until now, become the first branch of a tree. */
const BRANCHES = `
ALTER TABLE turns ADD COLUMN parent_id TEXT;
ALTER TABLE conversations ADD COLUMN active_turn_id TEXT;
ALTER TABLE messages ADD COLUMN files TEXT;
CREATE INDEX turns_by_parent ON turns(conversation_id, parent_id);
UPDATE turns SET parent_id = (
  SELECT p.id FROM turns p WHERE p.conversation_id = turns.conversation_id
    AND (p.started_at < turns.started_at OR (p.started_at = turns.started_at AND p.rowid < turns.rowid))
  ORDER BY p.started_at DESC, p.rowid DESC LIMIT 1);
UPDATE conversations SET active_turn_id = (
  SELECT t.id FROM turns t WHERE t.conversation_id = conversations.id ORDER BY t.started_at DESC, t.rowid DESC LIMIT 1);
`;

/** Version 2 → 3: the toolset a conversation is limited to (NULL: every tool, as before). */
const TOOLSETS = `
ALTER TABLE conversations ADD COLUMN toolset TEXT;
`;

/** Version 3 → 4: how long a tool call waited for the person's answer (NULL: it did not wait). */
const CONSENT_WAIT = `
ALTER TABLE tool_calls ADD COLUMN waited_ms INTEGER;
`;

/** MIGRATIONS[n] brings a file of version n to n + 1 (0 is a new, empty file). */
const MIGRATIONS: readonly string[] = [SCHEMA_1, BRANCHES, TOOLSETS, CONSENT_WAIT];

/**
 * Opens (creating) the conversations database: WAL, foreign keys, the schema checked and brought
 * up to date. A database from a newer Harbor is refused, never altered. Turns a crashed run left
 * "running" are marked interrupted before anything reads them.
 */
export function openConversationDatabase(path: string, now: () => number): DatabaseSync {
  const db = openPrivateDatabase(path, ['synchronous = NORMAL', 'foreign_keys = ON']);
  try {
    migrate(db, path);
    recoverInterrupted(db, now);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function schemaVersion(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

/**
 * Brings the file to SCHEMA_VERSION, every step in one transaction (a second Harbor opening it at
 * the same moment waits, then finds it done). A file from a newer Harbor is refused, never altered.
 */
function migrate(db: DatabaseSync, path: string): void {
  if (schemaVersion(db) === SCHEMA_VERSION) return;
  inTransaction(db, () => {
    const version = schemaVersion(db);
    if (version > SCHEMA_VERSION) {
      throw new HarborError('CONFIG_IO', `${path} was written by a newer Harbor (schema ${version}). Update Harbor to open these conversations.`);
    }
    for (const step of MIGRATIONS.slice(version)) db.exec(step);
    // A file of another shape that merely claims an older version (ALTER TABLE may well succeed on
    // it) must not be changed: the tables this code reads are probed before the steps are kept.
    probeShape(db);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

/** Throws (SQLite's "no such table/column") unless the tables and columns Harbor reads are there. */
function probeShape(db: DatabaseSync): void {
  db.prepare('SELECT id, toolset FROM conversations LIMIT 0').all();
  db.prepare('SELECT id, owner_pid, status, ended_at FROM turns LIMIT 0').all();
  db.prepare('SELECT turn_id, status, error_code, ended_at, waited_ms FROM tool_calls LIMIT 0').all();
}

/** Runs `fn` in one write transaction: all of it is stored, or none. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    rollbackIfOpen(db);
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
    if (processAlive(turn.owner_pid) && turn.owner_pid !== process.pid) continue;
    db.prepare("UPDATE turns SET status = 'interrupted', ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), turn.id);
    db.prepare(
      "UPDATE tool_calls SET status = 'error', error_code = 'CANCELLED', error_message = 'Harbor stopped before this call finished.', ended_at = COALESCE(ended_at, ?) WHERE turn_id = ? AND status NOT IN ('done', 'error')",
    ).run(now(), turn.id);
  }
}

