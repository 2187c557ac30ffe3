import { DatabaseSync, type SQLInputValue, type StatementResultingChanges, type StatementSync } from 'node:sqlite';
import type { z } from 'zod';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { preparePrivateDatabase } from '../private-files';
import { ForeignCommits } from './commit-watch';
import type { ToolDefinition } from './fingerprint';
import {
  ApprovalRow,
  ChangeRow,
  LaunchRow,
  OverrideRow,
  StandingMode,
  StandingPin,
  parseRow,
  type ApprovalKind,
  type ConsentTable,
  type LaunchApproval,
  type PolicyMode,
  type ToolApproval,
  type ToolChange,
} from './rows';

export type { ApprovalKind, LaunchApproval, PolicyMode, ToolApproval, ToolChange } from './rows';

/** What decides a call without asking: the setting that applies and the pinned fingerprints. */
export interface Standing {
  /** The tool's own setting, else the server-wide one ("*"). */
  readonly override?: PolicyMode;
  readonly always?: string;
  readonly once?: string;
}

/**
 * The person's decisions, in SQLite in the data dir: they survive restarts and can be listed and
 * revoked. Keyed by Harbor's own server name (never the server's self-reported serverInfo).
 */
export class ConsentStore implements Disposable {
  private readonly db: DatabaseSync;
  /** Prepared once: every tool call reads approvals, and preparing costs more than the query. */
  private readonly statements = new Map<string, StatementSync>();
  /** `standing` answers by server and tool, dropped on every write and every commit elsewhere. */
  private readonly standings = new Map<string, Standing>();
  private readonly foreignCommits: ForeignCommits;
  /** Named in the error when a row read back is corrupt. */
  private readonly path: string;

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = this.db.prepare(text)));
    return statement;
  }

  /** `watch: false` makes every call ask SQLite whether another connection committed (tests). */
  constructor(path: string, options: { watch?: boolean } = {}) {
    if (path !== ':memory:') preparePrivateDatabase(path);
    this.path = path;
    this.db = new DatabaseSync(path);
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS tool_approvals (
        server TEXT NOT NULL, tool TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('always','once')),
        fingerprint TEXT NOT NULL, definition TEXT NOT NULL, created_at INTEGER NOT NULL,
        PRIMARY KEY (server, tool, kind));
      CREATE TABLE IF NOT EXISTS launch_approvals (
        server TEXT PRIMARY KEY, launch_hash TEXT NOT NULL, command_line TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS tool_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT, server TEXT NOT NULL, tool TEXT NOT NULL,
        before TEXT NOT NULL, after TEXT, changed TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS policy_overrides (
        server TEXT NOT NULL, tool TEXT NOT NULL, mode TEXT NOT NULL CHECK (mode IN ('ask','allow','deny')),
        PRIMARY KEY (server, tool));
    `);
    // After the schema: in WAL mode the -wal file exists from here until the last connection closes.
    this.foreignCommits = new ForeignCommits(this.db, path, options);
    trackDisposable(this);
  }

  // Tool approvals --------------------------------------------------------------------------

  approvals(server?: string): ToolApproval[] {
    const rows = server === undefined
      ? this.sql('SELECT * FROM tool_approvals ORDER BY server, tool, kind').all()
      : this.sql('SELECT * FROM tool_approvals WHERE server = ? ORDER BY tool, kind').all(server);
    return rows.map((row) => this.parse(ApprovalRow, row, 'tool_approvals'));
  }

  /**
   * The hot path of every call. A SQLite read costs a WAL snapshot check (file-lock system calls)
   * even for a one-row lookup, so answers are kept in memory, dropped on every write through this
   * store and whenever another connection committed (see ForeignCommits).
   */
  standing(server: string, tool: string): Standing {
    if (this.foreignCommits.check()) this.standings.clear();
    const key = `${server}\u0000${tool}`;
    let standing = this.standings.get(key);
    if (!standing) this.standings.set(key, (standing = this.readStanding(server, tool)));
    return standing;
  }

  /** Whether commits elsewhere are noticed by a file watch (else every call asks SQLite). */
  get watchesCommits(): boolean {
    return this.foreignCommits.watching;
  }

  /** One statement, one read transaction, for all four answers; each parsed as the column of the row it came from. */
  private readStanding(server: string, tool: string): Standing {
    const row = this.sql(`SELECT
        (SELECT mode FROM policy_overrides WHERE server = ?1 AND tool = ?2) AS tool_mode,
        (SELECT mode FROM policy_overrides WHERE server = ?1 AND tool = '*') AS server_mode,
        (SELECT fingerprint FROM tool_approvals WHERE server = ?1 AND tool = ?2 AND kind = 'always') AS always_pin,
        (SELECT fingerprint FROM tool_approvals WHERE server = ?1 AND tool = ?2 AND kind = 'once') AS once_pin`).get(server, tool) ?? {};
    const mode = (column: 'tool_mode' | 'server_mode', key: { server: string; tool: string }) =>
      this.parse(StandingMode, row[column], 'policy_overrides', { key, column: 'mode' });
    const pin = (column: 'always_pin' | 'once_pin', kind: ApprovalKind) =>
      this.parse(StandingPin, row[column], 'tool_approvals', { key: { server, tool, kind }, column: 'fingerprint' });
    const override = mode('tool_mode', { server, tool }) ?? mode('server_mode', { server, tool: '*' });
    const always = pin('always_pin', 'always');
    const once = pin('once_pin', 'once');
    return {
      ...(override !== null ? { override } : {}),
      ...(always !== null ? { always } : {}),
      ...(once !== null ? { once } : {}),
    };
  }

  /** A row (or one column of one) read back, parsed: DATA_CORRUPT naming the table, the row and the fix when it is not what Harbor writes. */
  private parse<T extends z.ZodType>(schema: T, value: unknown, table: ConsentTable, at: { key?: Record<string, unknown>; column?: string } = {}): z.output<T> {
    return parseRow(schema, value, { path: this.path, table, ...at });
  }

  /** Every write goes through here: this connection's own commits do not change data_version. */
  private write(text: string, ...params: SQLInputValue[]): StatementResultingChanges {
    this.standings.clear();
    return this.sql(text).run(...params);
  }

  approval(server: string, tool: string, kind: ApprovalKind): ToolApproval | undefined {
    const row = this.sql('SELECT * FROM tool_approvals WHERE server = ? AND tool = ? AND kind = ?').get(server, tool, kind);
    return row ? this.parse(ApprovalRow, row, 'tool_approvals') : undefined;
  }

  grant(server: string, tool: string, kind: ApprovalKind, fingerprint: string, definition: ToolDefinition, now = Date.now()): void {
    this.write('INSERT OR REPLACE INTO tool_approvals (server, tool, kind, fingerprint, definition, created_at) VALUES (?, ?, ?, ?, ?, ?)', server, tool, kind, fingerprint, JSON.stringify(definition), now);
  }

  /** Removes approvals (and pending one-shot grants) of a tool, or of every tool of a server. */
  revoke(server: string, tool?: string): number {
    const result = tool === undefined
      ? this.write('DELETE FROM tool_approvals WHERE server = ?', server)
      : this.write('DELETE FROM tool_approvals WHERE server = ? AND tool = ?', server, tool);
    if (tool === undefined) this.write('DELETE FROM launch_approvals WHERE server = ?', server);
    return Number(result.changes);
  }

  /** Uses up a one-shot grant; true when there was one. */
  consumeOnce(server: string, tool: string): boolean {
    return Number(this.write("DELETE FROM tool_approvals WHERE server = ? AND tool = ? AND kind = 'once'", server, tool).changes) > 0;
  }

  // Launch approvals ------------------------------------------------------------------------

  launchApproval(server: string): LaunchApproval | undefined {
    const row = this.sql('SELECT * FROM launch_approvals WHERE server = ?').get(server);
    return row ? this.parse(LaunchRow, row, 'launch_approvals') : undefined;
  }

  approveLaunch(server: string, launchHash: string, commandLine: string, now = Date.now()): void {
    this.write('INSERT OR REPLACE INTO launch_approvals (server, launch_hash, command_line, created_at) VALUES (?, ?, ?, ?)', server, launchHash, commandLine, now);
  }

  launchApprovals(): LaunchApproval[] {
    return this.sql('SELECT * FROM launch_approvals ORDER BY server').all().map((row) => this.parse(LaunchRow, row, 'launch_approvals'));
  }

  // Changes (rug pulls) -----------------------------------------------------------------------

  recordChange(server: string, tool: string, before: ToolDefinition, after: ToolDefinition | null, changed: string[], now = Date.now()): void {
    this.write('INSERT INTO tool_changes (server, tool, before, after, changed, at) VALUES (?, ?, ?, ?, ?, ?)', server, tool, JSON.stringify(before), after === null ? null : JSON.stringify(after), JSON.stringify(changed), now);
  }

  /** The newest recorded change of a tool, for the diff shown when it asks again. */
  lastChange(server: string, tool: string): ToolChange | undefined {
    const row = this.sql('SELECT * FROM tool_changes WHERE server = ? AND tool = ? ORDER BY id DESC LIMIT 1').get(server, tool);
    return row ? this.parse(ChangeRow, row, 'tool_changes') : undefined;
  }

  changes(server?: string): ToolChange[] {
    const rows = server === undefined
      ? this.sql('SELECT * FROM tool_changes ORDER BY id').all()
      : this.sql('SELECT * FROM tool_changes WHERE server = ? ORDER BY id').all(server);
    return rows.map((row) => this.parse(ChangeRow, row, 'tool_changes'));
  }

  // Overrides (settings) --------------------------------------------------------------------

  /** `tool` "*" sets the default for every tool of the server. */
  setOverride(server: string, tool: string, mode: PolicyMode | null): void {
    if (mode === null) this.write('DELETE FROM policy_overrides WHERE server = ? AND tool = ?', server, tool);
    else this.write('INSERT OR REPLACE INTO policy_overrides (server, tool, mode) VALUES (?, ?, ?)', server, tool, mode);
  }

  /** Every override, for the settings page. */
  overrides(): Array<{ server: string; tool: string; mode: PolicyMode }> {
    return this.sql('SELECT server, tool, mode FROM policy_overrides ORDER BY server, tool').all().map((row) => this.parse(OverrideRow, row, 'policy_overrides'));
  }

  dispose(): void {
    markAsDisposed(this);
    this.foreignCommits.dispose();
    if (this.db.isOpen) this.db.close();
  }
}
