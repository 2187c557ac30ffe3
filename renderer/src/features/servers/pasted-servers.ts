/**
 * A `mcpServers` snippet pasted into the add-server form, as Claude Desktop, Cursor and VS Code
 * write them: `{"mcpServers": {…}}`, `{"servers": {…}}`, `{"mcp": {"servers": {…}}}`, one
 * `"name": {…}` line of such an object, or a bare entry `{"command": …}`. Read with jsonc-parser
 * (comments and trailing commas, as those files have them). Only finding the servers is done here:
 * adding several goes through the Host's import code (`registry.importApply` with `text`).
 */
import { parse, type ParseError } from 'jsonc-parser';

export interface PastedServer {
  /** Absent for a bare entry: the person names it. */
  readonly name?: string;
  readonly config: Readonly<Record<string, unknown>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEntry = (v: unknown): boolean => isRecord(v) && (typeof v.command === 'string' || typeof v.url === 'string');

/** The servers a pasted text holds; undefined when it is not such a snippet (then the paste is ordinary text). */
export function readPastedServers(text: string): PastedServer[] | undefined {
  const trimmed = text.trim().replace(/,$/, '');
  if (!trimmed.startsWith('{') && !trimmed.startsWith('"')) return undefined;
  const json = parseLoosely(trimmed) ?? parseLoosely(`{${trimmed}}`);
  if (!isRecord(json)) return undefined;
  if (isEntry(json)) return [{ config: json }];
  const map = isRecord(json.mcpServers) ? json.mcpServers : isRecord(json.servers) ? json.servers : isRecord(json.mcp) && isRecord(json.mcp.servers) ? json.mcp.servers : json;
  const servers = Object.entries(map).filter((e): e is [string, Record<string, unknown>] => isEntry(e[1]));
  return servers.length > 0 ? servers.map(([name, config]) => ({ name, config })) : undefined;
}

function parseLoosely(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0 ? value : undefined;
}
