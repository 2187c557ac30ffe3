import type { SQLInputValue, StatementResultingChanges } from 'node:sqlite';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import { ForeignCommits } from './commit-watch';
import { ConsentDatabase } from './database';
import type { ToolDefinition } from './fingerprint';
import type { ServerRef } from './identity';
import type { DataAccess } from '../open-database';
import { adoptRegistry, type AdoptedServer } from './registry-adoption';
import {
  ApprovalRow,
  ChangeRow,
  LaunchRow,
  OverrideRow,
  PinRow,
  StandingMode,
  StandingPin,
  type ApprovalKind,
  type LaunchApproval,
  type PolicyMode,
  type PolicyOverride,
  type SilentPin,
  type ToolApproval,
  type ToolChange,
} from './rows';
import { SecretBindingTable } from './secret-bindings';

export type { ApprovalKind, LaunchApproval, PolicyMode, PolicyOverride, SilentPin, ToolApproval, ToolChange } from './rows';

/** What decides a call without asking: the setting that applies and the pinned fingerprints. */
export interface Standing {
  /** The tool's own setting, else the server-wide one ("*"). */
  readonly override?: PolicyMode;
  readonly always?: string;
  readonly once?: string;
  /** The fingerprint the tool had when it first ran without asking (an "allow" setting, a trusted read-only tool). */
  readonly silent?: string;
}

/**
 * The person's decisions, in SQLite in the data dir: they survive restarts and can be listed and
 * revoked. Keyed by the server's identity (consent/identity.ts: its launch, or its URL), never by
 * its name alone and never by the server's self-reported serverInfo; each row keeps the name it
 * was made under as a label. A server's decisions go with it (`forget`).
 */
export class ConsentStore implements Disposable {
  private readonly database: ConsentDatabase;
  /**
   * `standing` answers by identity, then tool, dropped on every write and every commit elsewhere.
   * Two maps, not one keyed by identity + tool: a key joined per call is a new string to hash on
   * every call (the hot path).
   */
  private readonly standings = new Map<string, Map<string, Standing>>();
  private readonly foreignCommits: ForeignCommits;
  /** Which servers each keychain secret belongs to (the same file, so it goes with the server too). */
  readonly secrets: SecretBindingTable;

  /** `watch: false` makes every call ask SQLite whether another connection committed (tests). */
  /** `access` 'read-only': for a command that only reads (open-database.ts, openForReading). */
  constructor(path: string, options: { watch?: boolean; access?: DataAccess } = {}) {
    this.database = new ConsentDatabase(path, options.access);
    // After the schema: in WAL mode the -wal file exists from here until the last connection closes.
    // A reader reads once and goes: nothing to watch.
    this.foreignCommits = new ForeignCommits(this.database.db, path, options.access === 'read-only' ? { ...options, watch: false } : options);
    this.secrets = new SecretBindingTable(this.database);
    trackDisposable(this);
  }

  private sql(text: string) {
    return this.database.sql(text);
  }

  /** Every write goes through here: this connection's own commits do not change data_version. */
  private write(text: string, ...params: SQLInputValue[]): StatementResultingChanges {
    this.standings.clear();
    return this.sql(text).run(...params);
  }

  // Tool approvals --------------------------------------------------------------------------

  approvals(identity?: string): ToolApproval[] {
    const rows = identity === undefined
      ? this.sql('SELECT * FROM tool_approvals ORDER BY server, tool, kind').all()
      : this.sql('SELECT * FROM tool_approvals WHERE identity = ? ORDER BY tool, kind').all(identity);
    return rows.map((row) => this.database.parse(ApprovalRow, row, 'tool_approvals'));
  }

  /**
   * The hot path of every call. A SQLite read costs a WAL snapshot check (file-lock system calls)
   * even for a one-row lookup, so answers are kept in memory, dropped on every write through this
   * store and whenever another connection committed (see ForeignCommits).
   */
  standing(identity: string, tool: string): Standing {
    if (this.foreignCommits.check()) this.standings.clear();
    let byTool = this.standings.get(identity);
    if (!byTool) this.standings.set(identity, (byTool = new Map()));
    let standing = byTool.get(tool);
    if (!standing) byTool.set(tool, (standing = this.readStanding(identity, tool)));
    return standing;
  }

  /** Whether commits elsewhere are noticed by a file watch (else every call asks SQLite). */
  get watchesCommits(): boolean {
    return this.foreignCommits.watching;
  }

  /** One statement, one read transaction, for all five answers; each parsed as the column of the row it came from. */
  private readStanding(identity: string, tool: string): Standing {
    const row = this.sql(`SELECT
        (SELECT mode FROM policy_overrides WHERE identity = ?1 AND tool = ?2) AS tool_mode,
        (SELECT mode FROM policy_overrides WHERE identity = ?1 AND tool = '*') AS server_mode,
        (SELECT server FROM policy_overrides WHERE identity = ?1 LIMIT 1) AS server_label,
        (SELECT fingerprint FROM tool_approvals WHERE identity = ?1 AND tool = ?2 AND kind = 'always') AS always_pin,
        (SELECT fingerprint FROM tool_approvals WHERE identity = ?1 AND tool = ?2 AND kind = 'once') AS once_pin,
        (SELECT server FROM tool_approvals WHERE identity = ?1 LIMIT 1) AS approval_label,
        (SELECT fingerprint FROM silent_pins WHERE identity = ?1 AND tool = ?2) AS silent_pin,
        (SELECT server FROM silent_pins WHERE identity = ?1 LIMIT 1) AS pin_label`).get(identity, tool) ?? {};
    // A corrupt column is named by the row it came from, as a person knows the server: by name.
    const label = (column: string) => (typeof row[column] === 'string' ? (row[column] as string) : identity);
    const mode = (column: 'tool_mode' | 'server_mode', key: { server: string; tool: string }) =>
      this.database.parse(StandingMode, row[column], 'policy_overrides', { key, column: 'mode' });
    const pin = (column: 'always_pin' | 'once_pin', kind: ApprovalKind) =>
      this.database.parse(StandingPin, row[column], 'tool_approvals', { key: { server: label('approval_label'), tool, kind }, column: 'fingerprint' });
    const server = label('server_label');
    const override = mode('tool_mode', { server, tool }) ?? mode('server_mode', { server, tool: '*' });
    const always = pin('always_pin', 'always');
    const once = pin('once_pin', 'once');
    const silent = this.database.parse(StandingPin, row.silent_pin, 'silent_pins', { key: { server: label('pin_label'), tool }, column: 'fingerprint' });
    return {
      ...(override !== null ? { override } : {}),
      ...(always !== null ? { always } : {}),
      ...(once !== null ? { once } : {}),
      ...(silent !== null ? { silent } : {}),
    };
  }

  approval(identity: string, tool: string, kind: ApprovalKind): ToolApproval | undefined {
    const row = this.sql('SELECT * FROM tool_approvals WHERE identity = ? AND tool = ? AND kind = ?').get(identity, tool, kind);
    return row ? this.database.parse(ApprovalRow, row, 'tool_approvals') : undefined;
  }

  grant(server: ServerRef, tool: string, kind: ApprovalKind, fingerprint: string, definition: ToolDefinition, now = Date.now()): void {
    this.write(
      'INSERT OR REPLACE INTO tool_approvals (identity, server, tool, kind, fingerprint, definition, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      server.identity, server.name, tool, kind, fingerprint, JSON.stringify(definition), now,
    );
  }

  /** Removes approvals (and pending one-shot grants) of a tool, or of every tool of a server and its launch approval. */
  revoke(identity: string, tool?: string): number {
    const result = tool === undefined
      ? this.write('DELETE FROM tool_approvals WHERE identity = ?', identity)
      : this.write('DELETE FROM tool_approvals WHERE identity = ? AND tool = ?', identity, tool);
    if (tool === undefined) this.write('DELETE FROM launch_approvals WHERE identity = ?', identity);
    return Number(result.changes);
  }

  /** Uses up a one-shot grant; true when there was one. */
  consumeOnce(identity: string, tool: string): boolean {
    return Number(this.write("DELETE FROM tool_approvals WHERE identity = ? AND tool = ? AND kind = 'once'", identity, tool).changes) > 0;
  }

  // Launch approvals ------------------------------------------------------------------------

  launchApproval(identity: string): LaunchApproval | undefined {
    const row = this.sql('SELECT * FROM launch_approvals WHERE identity = ?').get(identity);
    return row ? this.database.parse(LaunchRow, row, 'launch_approvals') : undefined;
  }

  /** `launchHash`: what the approval covers (identity.ts launchKey); `commandLine`: what the person saw. */
  approveLaunch(server: ServerRef, launchHash: string, commandLine: string, now = Date.now()): void {
    this.write(
      'INSERT OR REPLACE INTO launch_approvals (identity, server, launch_hash, command_line, created_at) VALUES (?, ?, ?, ?, ?)',
      server.identity, server.name, launchHash, commandLine, now,
    );
  }

  launchApprovals(): LaunchApproval[] {
    return this.sql('SELECT * FROM launch_approvals ORDER BY server').all().map((row) => this.database.parse(LaunchRow, row, 'launch_approvals'));
  }

  // Changes (rug pulls) -----------------------------------------------------------------------

  recordChange(server: ServerRef, tool: string, before: ToolDefinition, after: ToolDefinition | null, changed: string[], now = Date.now()): void {
    this.write(
      'INSERT INTO tool_changes (identity, server, tool, before, after, changed, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      server.identity, server.name, tool, JSON.stringify(before), after === null ? null : JSON.stringify(after), JSON.stringify(changed), now,
    );
  }

  /** The newest recorded change of a tool, for the diff shown when it asks again. */
  lastChange(identity: string, tool: string): ToolChange | undefined {
    const row = this.sql('SELECT * FROM tool_changes WHERE identity = ? AND tool = ? ORDER BY id DESC LIMIT 1').get(identity, tool);
    return row ? this.database.parse(ChangeRow, row, 'tool_changes') : undefined;
  }

  changes(identity?: string): ToolChange[] {
    const rows = identity === undefined
      ? this.sql('SELECT * FROM tool_changes ORDER BY id').all()
      : this.sql('SELECT * FROM tool_changes WHERE identity = ? ORDER BY id').all(identity);
    return rows.map((row) => this.database.parse(ChangeRow, row, 'tool_changes'));
  }

  // Overrides (settings) and what ran under them ----------------------------------------------

  /** `tool` "*" sets the default for every tool of the server. */
  setOverride(server: ServerRef, tool: string, mode: PolicyMode | null): void {
    if (mode === null) this.write('DELETE FROM policy_overrides WHERE identity = ? AND tool = ?', server.identity, tool);
    else this.write('INSERT OR REPLACE INTO policy_overrides (identity, server, tool, mode) VALUES (?, ?, ?, ?)', server.identity, server.name, tool, mode);
  }

  /** Every override, for the settings page. */
  overrides(): PolicyOverride[] {
    return this.sql('SELECT identity, server, tool, mode FROM policy_overrides ORDER BY server, tool').all().map((row) => this.database.parse(OverrideRow, row, 'policy_overrides'));
  }

  silentPin(identity: string, tool: string): SilentPin | undefined {
    const row = this.sql('SELECT * FROM silent_pins WHERE identity = ? AND tool = ?').get(identity, tool);
    return row ? this.database.parse(PinRow, row, 'silent_pins') : undefined;
  }

  silentPins(identity: string): SilentPin[] {
    return this.sql('SELECT * FROM silent_pins WHERE identity = ? ORDER BY tool').all(identity).map((row) => this.database.parse(PinRow, row, 'silent_pins'));
  }

  /** Pins the definition a tool runs under without asking: a changed one asks again (a rug pull). */
  pinSilent(server: ServerRef, tool: string, fingerprint: string, definition: ToolDefinition, now = Date.now()): void {
    this.write(
      'INSERT OR REPLACE INTO silent_pins (identity, server, tool, fingerprint, definition, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      server.identity, server.name, tool, fingerprint, JSON.stringify(definition), now,
    );
  }

  // A server's whole record ---------------------------------------------------------------------

  /** Forgets every decision about a server that left the registry, its secret bindings included. */
  forget(identity: string): void {
    this.database.transaction(() => {
      for (const table of ['tool_approvals', 'launch_approvals', 'tool_changes', 'policy_overrides', 'silent_pins', 'secret_bindings']) {
        this.write(`DELETE FROM ${table} WHERE identity = ?`, identity);
      }
    });
  }

  /** The identities rows were recorded under with this name (a server no longer in the registry). */
  identitiesNamed(name: string): string[] {
    const rows = this.sql(`SELECT identity FROM tool_approvals WHERE server = ?1 UNION SELECT identity FROM launch_approvals WHERE server = ?1
      UNION SELECT identity FROM policy_overrides WHERE server = ?1 UNION SELECT identity FROM silent_pins WHERE server = ?1`).all(name);
    return rows.map((row) => String(row.identity));
  }

  /**
   * This version's first run: the registry as found is adopted once (registry-adoption.ts).
   * False when it was adopted before (by this process or another).
   */
  adoptRegistry(servers: readonly AdoptedServer[], now = Date.now()): boolean {
    this.standings.clear();
    return adoptRegistry(this.database, servers, now);
  }

  dispose(): void {
    markAsDisposed(this);
    this.foreignCommits.dispose();
    this.database.dispose();
  }
}
