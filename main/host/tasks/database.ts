/**
 * tasks.db: its schema, its version (SQLite's `user_version`) and what happens when it cannot be
 * used. The file holds only the task list, which the servers can tell again, so a damaged one
 * (random bytes, another program's schema) is set aside — renamed `tasks.db.damaged-<time>`, kept,
 * and the person told — and a new one started. A file from a newer Harbor is refused, never
 * altered or set aside: updating Harbor reads it.
 */
import { existsSync, renameSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { isDamage } from '../data-file-errors';
import { HarborError } from '../errors';
import { openForReading, openPrivateDatabase, rollbackIfOpen, type DataAccess } from '../open-database';

/**
 * 1: the first versioned schema (files from before it have the same tables at version 0).
 * 2: each task names the process following it (`owner`), so a task whose `harbor` command was
 * killed is seen as no longer followed.
 */
export const SCHEMA_VERSION = 2;

const OWNER = 'ALTER TABLE tasks ADD COLUMN owner TEXT;';

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

/** Every column Harbor reads: a `tasks` table without one of them is not Harbor's. */
const COLUMNS = 'server, task_id, tool, era, status, status_message, created_at, last_updated_at, ttl_ms, has_ttl, poll_interval_ms, started_at, ended_at, result, error, origin, answered_keys, cancel_requested, delivered';

/** The refusal and the way out, shared with the messages of damaged rows. */
export function asideAdvice(path: string): string {
  return `quit Harbor and move ${basename(path)} aside (rename it): only the task list is lost`;
}

function version(db: DatabaseSync): number {
  return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
}

function migrate(db: DatabaseSync, path: string): void {
  if (version(db) === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const found = version(db);
    if (found > SCHEMA_VERSION) {
      throw new HarborError('DATA_CORRUPT', `${path} was written by a newer Harbor (schema ${found}; this one knows ${SCHEMA_VERSION}). Update Harbor, or ${asideAdvice(path)}.`);
    }
    if (found < 1) {
      db.exec(SCHEMA);
      // Another program's `tasks` table fails here ("no such column"), before anything is written.
      db.prepare(`SELECT ${COLUMNS} FROM tasks LIMIT 0`).all();
    }
    if (found < 2) db.exec(OWNER);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    rollbackIfOpen(db);
    throw error;
  }
}

function open(path: string): DatabaseSync {
  const db = openPrivateDatabase(path);
  try {
    migrate(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function inode(path: string): number | undefined {
  return existsSync(path) ? statSync(path).ino : undefined;
}

/**
 * Opens tasks.db, setting a damaged one aside first (`onSetAside` tells the person where it went).
 * Only the file that was found damaged is moved: when another Harbor set it aside and started a
 * new one meanwhile, that new one is opened instead.
 */
export function openTasksDatabase(path: string, onSetAside: (message: string) => void, now: () => Date = () => new Date(), access: DataAccess = 'read-write'): DatabaseSync {
  if (access === 'read-only') {
    const db = openForReading(path, { schemaVersion: SCHEMA_VERSION }, () => openTasksDatabase(path, onSetAside, now));
    // Lays out an empty in-memory list; a file already of this schema is left as it is.
    migrate(db, path);
    return db;
  }
  const found = inode(path);
  try {
    return open(path);
  } catch (error) {
    if (!isDamage(error)) throw error;
    if (inode(path) === found) {
      const aside = `${path}.damaged-${now().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(path, aside);
      // SQLite pairs a database with its -wal by name: they move together, so nothing is replayed into the new file.
      for (const companion of ['-wal', '-shm']) if (existsSync(`${path}${companion}`)) renameSync(`${path}${companion}`, `${aside}${companion}`);
      onSetAside(
        `${path} could not be read (${(error as Error).message}); it was moved to ${basename(aside)} in the same folder and a new, empty task list started — only the task list is lost (the tasks ran on their servers).`,
      );
    }
    return open(path);
  }
}
