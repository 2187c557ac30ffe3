/**
 * The consent database's rows as read back, parsed: SQLite keeps whatever was written (a hand
 * edit, a disk error, another program), so a row that is not what Harbor wrote becomes a
 * DATA_CORRUPT error naming the table, the row and how to remove it, never a value that merely
 * claims its type.
 */
import { isSpecType } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { ConsentPolicyMode } from '../../../preload/contract';
import { HarborError } from '../errors';
import { describeIssues } from '../contract-checks';
import { jsonColumn } from '../json-column';
import type { ToolDefinition } from './fingerprint';

/** JSON text that holds a value of `schema`. */
const jsonOf = jsonColumn;

/** A definition as the SDK would accept it from a server (what Harbor stored came from one). */
const isToolDefinition = (value: unknown): value is ToolDefinition => isSpecType.Tool(value);
const ToolDefinitionJson = jsonOf(z.custom<ToolDefinition>(isToolDefinition, 'not an MCP tool definition'));

/** The settings' modes are the contract's: the Settings page sets them. */
export const PolicyMode = ConsentPolicyMode;
export type PolicyMode = ConsentPolicyMode;

export const ApprovalKind = z.enum(['always', 'once']);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

/** Every row carries the server's identity (its key) and the name it had then (a label for lists and messages). */
const Keyed = { identity: z.string(), server: z.string() };

export const ApprovalRow = z
  .object({
    ...Keyed,
    tool: z.string(),
    kind: ApprovalKind,
    fingerprint: z.string(),
    definition: ToolDefinitionJson,
    created_at: z.number(),
  })
  .transform(({ created_at, ...approval }) => ({ ...approval, createdAt: created_at }));
export type ToolApproval = Readonly<z.output<typeof ApprovalRow>>;

export const LaunchRow = z
  .object({ ...Keyed, launch_hash: z.string(), command_line: z.string(), created_at: z.number() })
  .transform((row) => ({ identity: row.identity, server: row.server, launchHash: row.launch_hash, commandLine: row.command_line, createdAt: row.created_at }));
export type LaunchApproval = Readonly<z.output<typeof LaunchRow>>;

export const ChangeRow = z.object({
  id: z.number(),
  ...Keyed,
  tool: z.string(),
  before: ToolDefinitionJson,
  after: ToolDefinitionJson.nullable(),
  changed: jsonOf(z.array(z.string())),
  at: z.number(),
});
export type ToolChange = Readonly<z.output<typeof ChangeRow>>;

export const OverrideRow = z.object({ ...Keyed, tool: z.string(), mode: PolicyMode });
export type PolicyOverride = Readonly<z.output<typeof OverrideRow>>;

/** The definition a tool had when it first ran without asking (an "allow" setting, a trusted read-only tool). */
export const PinRow = z
  .object({ ...Keyed, tool: z.string(), fingerprint: z.string(), definition: ToolDefinitionJson, created_at: z.number() })
  .transform(({ created_at, ...pin }) => ({ ...pin, createdAt: created_at }));
export type SilentPin = Readonly<z.output<typeof PinRow>>;

/** How a secret came to belong to a server: set for it (editor, import), granted by the person, or carried over by the first run. */
export const BindingOrigin = z.enum(['set', 'granted', 'migrated']);
export type BindingOrigin = z.infer<typeof BindingOrigin>;

export const BindingRow = z
  .object({ secret: z.string(), ...Keyed, origin: BindingOrigin, created_at: z.number() })
  .transform(({ created_at, ...binding }) => ({ ...binding, createdAt: created_at }));
export type SecretBinding = Readonly<z.output<typeof BindingRow>>;

/** One column of the standing read: a setting's mode, or a pinned fingerprint (null: none). */
export const StandingMode = PolicyMode.nullable();
export const StandingPin = z.string().nullable();

export type ConsentTable = 'tool_approvals' | 'launch_approvals' | 'tool_changes' | 'policy_overrides' | 'silent_pins' | 'secret_bindings';

/** Where a value was read: the database file, the table, and the row's key (its other columns may be what is wrong). */
export interface RowPlace {
  readonly path: string;
  readonly table: ConsentTable;
  /** The key columns, when the value is not the whole row (e.g. one column of a joined read). */
  readonly key?: Readonly<Record<string, unknown>>;
  /** The column the value came from, when it is not the whole row. */
  readonly column?: string;
}

/** The columns that name a row to a person: the server's name rather than its identity hash. */
const KEY_COLUMNS: Record<ConsentTable, readonly string[]> = {
  tool_approvals: ['server', 'tool', 'kind'],
  launch_approvals: ['server'],
  tool_changes: ['id'],
  policy_overrides: ['server', 'tool'],
  silent_pins: ['server', 'tool'],
  secret_bindings: ['secret', 'server'],
};

/** SQL text literal: names are the person's, and may hold a quote. */
const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);

function whereOf(table: ConsentTable, key: Readonly<Record<string, unknown>>): string {
  return KEY_COLUMNS[table].map((column) => `${column} = ${literal(key[column])}`).join(' AND ');
}

/** How to get rid of the row: Harbor's own command where one removes it, else SQL; always, a fresh file. */
function fixFor(table: ConsentTable, key: Readonly<Record<string, unknown>>, path: string): string {
  const fresh = `or quit Harbor and delete ${path} (Harbor forgets every consent decision and asks again)`;
  if (table === 'tool_approvals') return `Run: harbor consent revoke ${String(key.server)} ${String(key.tool)} (Harbor asks again before its next call), ${fresh}.`;
  if (table === 'launch_approvals') return `Run: harbor consent revoke ${String(key.server)} (Harbor asks again before it launches), ${fresh}.`;
  return `Remove the row with: sqlite3 "${path}" "DELETE FROM ${table} WHERE ${whereOf(table, key).replaceAll('"', '\\"')}", ${fresh}.`;
}

/** Parses a row (or one column of one) read back from the consent database; DATA_CORRUPT when it is not what Harbor writes. */
export function parseRow<T extends z.ZodType>(schema: T, value: unknown, place: RowPlace): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const key = place.key ?? (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
  throw new HarborError(
    'DATA_CORRUPT',
    `Harbor's consent database (${place.path}) has a corrupt row in ${place.table} (${whereOf(place.table, key)}): ` +
      `${describeIssues(parsed.error, place.column ?? '(row)')}. ${fixFor(place.table, key, place.path)}`,
  );
}
