/**
 * Opens one of Harbor's SQLite files the one way they are all opened: owner-only (see
 * private-files.ts), the busy timeout set first, then WAL. The order matters: switching a new file
 * to WAL takes a write lock, and two Harbors starting together (the app and a CLI, or two CLIs)
 * race for it; without a busy timeout already in place the loser fails at once with "database is
 * locked" instead of waiting the moment it takes the other to finish.
 */
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { preparePrivateDatabase } from './private-files';

/** How a command uses the data files: a command that only reads opens them read-only (openForReading). */
export type DataAccess = 'read-write' | 'read-only';

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
 * Opens `path` for a command that only reads, writing nothing to the data folder:
 * - no file, or an empty one (nothing was ever written): an empty in-memory database, which the
 *   store lays out as usual — nothing to read is an empty list, and no file is created;
 * - a file of this schema: read-only. While another Harbor has it open its -wal exists and is read
 *   with it (SQLite may add the -shm it shares). Without a -wal no connection is open: the file is
 *   read as `immutable`, which makes no -wal/-shm (a read-only folder has no room for them) — a
 *   Harbor starting to write meanwhile writes into a new -wal, not into this file, until it closes;
 * - a file that needs a migration (or another write first, `settled`), is refused, or cannot be
 *   read: `openForWriting`, the way every other command opens it (a migration is written once; a
 *   damaged or newer file is told as usual).
 * The caller lays out its schema as usual afterwards: a no-op on a file of this schema.
 */
export function openForReading(
  path: string,
  expect: { readonly schemaVersion: number; readonly pragmas?: readonly string[]; /** Whether the file needs no write before it is read (consent: its registry adopted). */ readonly settled?: (db: DatabaseSync) => boolean },
  openForWriting: () => DatabaseSync,
): DatabaseSync {
  const { schemaVersion, pragmas = [], settled = () => true } = expect;
  if (!existsSync(path) || statSync(path).size === 0) return openPrivateDatabase(':memory:', pragmas);
  const immutable = !existsSync(`${path}-wal`);
  let db: DatabaseSync | undefined;
  try {
    if (immutable) {
      const url = pathToFileURL(path);
      url.searchParams.set('immutable', '1');
      db = new DatabaseSync(url, { readOnly: true });
    } else {
      db = new DatabaseSync(path, { readOnly: true });
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS};`);
    }
    const found = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (found === schemaVersion && settled(db)) return db;
  } catch {
    // Damaged, or not readable read-only: the writing way below opens it again and tells what is wrong.
  }
  db?.close();
  return openForWriting();
}

/** Whether `error` says the data folder or file cannot be written (read-only, or not this user's): SQLite's or the file system's. */
export function isUnwritable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { errcode, code } = error as { errcode?: unknown; code?: unknown };
  // SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN, whichever extended code.
  if (typeof errcode === 'number') return [3, 8, 14].includes(errcode & 0xff);
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
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
