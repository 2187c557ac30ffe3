import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { z } from 'zod';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { openForReading, openPrivateDatabase, rollbackIfOpen, type DataAccess } from '../open-database';
import { parseRow, type ConsentTable } from './rows';

/**
 * The schema's version, in SQLite's `user_version`. 0: the first schema, every decision keyed by
 * the server's name (its tables are kept as legacy_* until the registry is adopted, see
 * registry-adoption.ts). 2: keyed by the server's identity, with secret bindings and silent pins.
 */
export const SCHEMA_VERSION = 2;

/** The tables of schema 0, renamed legacy_<name> by the migration. */
export const LEGACY_TABLES = ['tool_approvals', 'launch_approvals', 'tool_changes', 'policy_overrides'] as const;

const SCHEMA = `
  CREATE TABLE tool_approvals (
    identity TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('always','once')),
    fingerprint TEXT NOT NULL, definition TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (identity, tool, kind));
  CREATE TABLE launch_approvals (
    identity TEXT PRIMARY KEY, server TEXT NOT NULL, launch_hash TEXT NOT NULL, command_line TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE tool_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, identity TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT, changed TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE TABLE policy_overrides (
    identity TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, mode TEXT NOT NULL CHECK (mode IN ('ask','allow','deny')),
    PRIMARY KEY (identity, tool));
  CREATE TABLE silent_pins (
    identity TEXT NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, fingerprint TEXT NOT NULL, definition TEXT NOT NULL,
    created_at INTEGER NOT NULL, PRIMARY KEY (identity, tool));
  CREATE TABLE secret_bindings (
    secret TEXT NOT NULL, identity TEXT NOT NULL, server TEXT NOT NULL,
    origin TEXT NOT NULL CHECK (origin IN ('set','granted','migrated')), created_at INTEGER NOT NULL,
    PRIMARY KEY (secret, identity));
  CREATE TABLE harbor_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** harbor_meta key: 'pending' until the registry as it is at this version's first run was adopted. */
export const ADOPTION_KEY = 'registry-adoption';
/** ADOPTION_KEY of a data folder no older Harbor wrote: its first run approves no remote server. */
export const FRESH_ADOPTION = 'pending-fresh';

function adoptionState(db: DatabaseSync): unknown {
  return (db.prepare('SELECT value FROM harbor_meta WHERE key = ?').get(ADOPTION_KEY) as { value?: unknown } | undefined)?.value;
}

/**
 * One connection to consent.db, schema migrated: statements prepared once, writes in
 * transactions, rows parsed on the way out. Shared by the decisions (store.ts) and the secret
 * bindings (secret-bindings.ts).
 */
export class ConsentDatabase implements Disposable {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(
    readonly path: string,
    readonly access: DataAccess = 'read-write',
  ) {
    // Owner-only from the first byte: the folder 0700, the file (and so its -wal/-shm) 0600.
    this.db =
      access === 'read-only'
        ? // A registry adoption still to do is a write: that file is opened the writing way.
          openForReading(path, { schemaVersion: SCHEMA_VERSION, settled: (db) => adoptionState(db) === 'done' }, () => openPrivateDatabase(path))
        : openPrivateDatabase(path);
    try {
      this.migrate();
    } catch (error) {
      this.db.close();
      throw error;
    }
    trackDisposable(this);
  }

  sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /** Runs `work` in one write transaction (taken up front, so two processes never interleave). */
  transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      rollbackIfOpen(this.db);
      throw error;
    }
  }

  parse<T extends z.ZodType>(schema: T, value: unknown, table: ConsentTable, at: { key?: Record<string, unknown>; column?: string } = {}): z.output<T> {
    return parseRow(schema, value, { path: this.path, table, ...at });
  }

  meta(key: string): string | undefined {
    const row = this.sql('SELECT value FROM harbor_meta WHERE key = ?').get(key) as { value?: unknown } | undefined;
    return typeof row?.value === 'string' ? row.value : undefined;
  }

  setMeta(key: string, value: string): void {
    this.sql('INSERT OR REPLACE INTO harbor_meta (key, value) VALUES (?, ?)').run(key, value);
  }

  tableExists(name: string): boolean {
    return this.sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }

  private version(): number {
    return Number((this.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  }

  /**
   * Brings the file to SCHEMA_VERSION, once, in one transaction (a second process opening it at
   * the same moment waits, then finds it done). From schema 0 the name-keyed tables are kept as
   * legacy_*: which identity each name has is only known once the registry is read.
   */
  private migrate(): void {
    if (this.version() === SCHEMA_VERSION) return;
    this.transaction(() => {
      const version = this.version();
      if (version === SCHEMA_VERSION) return;
      if (version > SCHEMA_VERSION) {
        throw new HarborError(
          'DATA_CORRUPT',
          `Harbor's consent database (${this.path}) was written by a newer Harbor (schema ${version}; this one knows ${SCHEMA_VERSION}). Update Harbor, or quit it and delete the file (Harbor forgets every consent decision and asks again).`,
        );
      }
      // Written by an older Harbor (schema 0 made its tables on its first start): an upgrade.
      const upgrade = LEGACY_TABLES.some((table) => this.tableExists(table));
      for (const table of LEGACY_TABLES) if (this.tableExists(table)) this.db.exec(`ALTER TABLE ${table} RENAME TO legacy_${table}`);
      this.db.exec(SCHEMA);
      // The first run adopts the registry it finds, once (registry-adoption.ts). A fresh data
      // folder is no upgrade: a registry that was there before Harbor first ran (copied in,
      // written by another program) gets no remote server approved.
      this.setMeta(ADOPTION_KEY, upgrade ? 'pending' : FRESH_ADOPTION);
      this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  dispose(): void {
    markAsDisposed(this);
    if (this.db.isOpen) this.db.close();
  }
}
