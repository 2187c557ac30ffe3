/**
 * Opens one of Harbor's SQLite files the one way they are all opened: owner-only (see
 * private-files.ts), the busy timeout set first, then WAL. The order matters: switching a new file
 * to WAL takes a write lock, and two Harbors starting together (the app and a CLI, or two CLIs)
 * race for it; without a busy timeout already in place the loser fails at once with "database is
 * locked" instead of waiting the moment it takes the other to finish.
 */
import { DatabaseSync } from 'node:sqlite';
import { preparePrivateDatabase } from './private-files';

/** How long a statement waits for another process's lock before giving up with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/** `pragmas` run after WAL is on (e.g. `synchronous = NORMAL`); the database is closed if any fails. */
export function openPrivateDatabase(path: string, pragmas: readonly string[] = []): DatabaseSync {
  if (path !== ':memory:') preparePrivateDatabase(path);
  const db = new DatabaseSync(path);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};`);
    db.exec('PRAGMA journal_mode = WAL;');
    for (const pragma of pragmas) db.exec(`PRAGMA ${pragma};`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Ends the write transaction a failed statement left open. SQLite rolls back by itself on some
 * failures (a full disk, an I/O error); a ROLLBACK then would fail with "cannot rollback - no
 * transaction is active" and hide the error that matters, so it runs only while one is open.
 */
export function rollbackIfOpen(db: DatabaseSync): void {
  const open = (db as { isTransaction?: boolean }).isTransaction;
  if (open === false) return;
  if (open === true) {
    db.exec('ROLLBACK');
    return;
  }
  // Node 22.15 has no isTransaction: try it.
  try {
    db.exec('ROLLBACK');
  } catch {
    // No transaction was open (SQLite had already rolled it back): the caller rethrows the error that matters.
  }
}
