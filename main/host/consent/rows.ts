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

export const ApprovalRow = z
  .object({
    server: z.string(),
    tool: z.string(),
    kind: ApprovalKind,
    fingerprint: z.string(),
    definition: ToolDefinitionJson,
    created_at: z.number(),
  })
  .transform(({ created_at, ...approval }) => ({ ...approval, createdAt: created_at }));
export type ToolApproval = Readonly<z.output<typeof ApprovalRow>>;

export const LaunchRow = z
  .object({ server: z.string(), launch_hash: z.string(), command_line: z.string(), created_at: z.number() })
  .transform((row) => ({ server: row.server, launchHash: row.launch_hash, commandLine: row.command_line, createdAt: row.created_at }));
export type LaunchApproval = Readonly<z.output<typeof LaunchRow>>;

export const ChangeRow = z.object({
  id: z.number(),
  server: z.string(),
  tool: z.string(),
  before: ToolDefinitionJson,
  after: ToolDefinitionJson.nullable(),
  changed: jsonOf(z.array(z.string())),
  at: z.number(),
});
export type ToolChange = Readonly<z.output<typeof ChangeRow>>;

export const OverrideRow = z.object({ server: z.string(), tool: z.string(), mode: PolicyMode });

/** One column of the standing read: a setting's mode, or an approval's pinned fingerprint (null: none). */
export const StandingMode = PolicyMode.nullable();
export const StandingPin = z.string().nullable();

export type ConsentTable = 'tool_approvals' | 'launch_approvals' | 'tool_changes' | 'policy_overrides';

/** Where a value was read: the database file, the table, and the row's key (its other columns may be what is wrong). */
export interface RowPlace {
  readonly path: string;
  readonly table: ConsentTable;
  /** The key columns, when the value is not the whole row (e.g. one column of a joined read). */
  readonly key?: Readonly<Record<string, unknown>>;
  /** The column the value came from, when it is not the whole row. */
  readonly column?: string;
}

const KEY_COLUMNS: Record<ConsentTable, readonly string[]> = {
  tool_approvals: ['server', 'tool', 'kind'],
  launch_approvals: ['server'],
  tool_changes: ['id'],
  policy_overrides: ['server', 'tool'],
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
