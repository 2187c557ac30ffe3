import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { openForReading, openPrivateDatabase, type DataAccess } from '../open-database';
import type { ServerRef } from '../consent/identity';
import type { PinnedFile } from './skill-files';

/** The schema's version, in SQLite's `user_version`. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE skill_approvals (
    identity TEXT NOT NULL, server TEXT NOT NULL, uri TEXT NOT NULL, name TEXT NOT NULL,
    files TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (identity, uri));
`;

/** "Always for this skill": pinned to the entry's whole `resources` set as it was approved. */
export interface SkillApproval {
  readonly identity: string;
  /** The name the server had when the person approved (a label; decisions are keyed by identity). */
  readonly server: string;
  readonly uri: string;
  readonly name: string;
  readonly files: readonly PinnedFile[];
  readonly createdAt: number;
}

const Row = z.object({
  identity: z.string(),
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  files: z.string(),
  created_at: z.number(),
});
const Files = z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() }));

/**
 * The person's skill approvals, in `DATA/skill-approvals.db` (owner-only, like every database of
 * Harbor's): keyed by the pair (server identity, skill URI), never by a name. A file of its own,
 * beside consent.db, so the skills' schema moves without touching the tool decisions'.
 */
export class SkillApprovalStore implements Disposable {
  private readonly db: DatabaseSync;

  constructor(
    readonly path: string,
    access: DataAccess = 'read-write',
  ) {
    this.db = access === 'read-only' ? openForReading(path, { schemaVersion: SCHEMA_VERSION }, () => openPrivateDatabase(path)) : openPrivateDatabase(path);
    try {
      const version = (this.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
      if (version === 0) {
        this.db.exec(`BEGIN; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
      } else if (version !== SCHEMA_VERSION) {
        throw new HarborError('DATA_CORRUPT', `${path} was written by a newer Harbor (schema ${version}); this one knows schema ${SCHEMA_VERSION}.`);
      }
    } catch (error) {
      this.db.close();
      throw error;
    }
    trackDisposable(this);
  }

  get(identity: string, uri: string): SkillApproval | undefined {
    const row = this.db.prepare('SELECT * FROM skill_approvals WHERE identity = ? AND uri = ?').get(identity, uri);
    return row === undefined ? undefined : this.parse(row);
  }

  list(): SkillApproval[] {
    return this.db.prepare('SELECT * FROM skill_approvals ORDER BY server, uri').all().map((row) => this.parse(row));
  }

  grant(server: ServerRef, uri: string, name: string, files: readonly PinnedFile[], now = Date.now()): void {
    this.db
      .prepare('INSERT OR REPLACE INTO skill_approvals (identity, server, uri, name, files, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(server.identity, server.name, uri, name, JSON.stringify(files.map(({ uri: file, digest, size }) => ({ uri: file, digest, size }))), now);
  }

  /** Removes one skill's approval, or every skill approval of the server: how many went. */
  revoke(identity: string, uri?: string): number {
    const result =
      uri === undefined
        ? this.db.prepare('DELETE FROM skill_approvals WHERE identity = ?').run(identity)
        : this.db.prepare('DELETE FROM skill_approvals WHERE identity = ? AND uri = ?').run(identity, uri);
    return Number(result.changes);
  }

  private parse(value: unknown): SkillApproval {
    const row = Row.safeParse(value);
    const files = row.success ? Files.safeParse(safeJson(row.data.files)) : undefined;
    if (!row.success || !files?.success) throw new HarborError('DATA_CORRUPT', `A row of ${this.path} is not what Harbor writes.`);
    return { identity: row.data.identity, server: row.data.server, uri: row.data.uri, name: row.data.name, files: files.data, createdAt: row.data.created_at };
  }

  dispose(): void {
    markAsDisposed(this);
    this.db.close();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // reported as DATA_CORRUPT by the caller's schema check
  }
}
