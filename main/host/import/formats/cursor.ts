import { mcpServersEntries } from './shape';
import type { RawServers } from './types';

/**
 * Cursor's `~/.cursor/mcp.json` (or a project's `.cursor/mcp.json`): the same `mcpServers` shape
 * as Claude Desktop. Cursor expands `${env:NAME}`, `${userHome}` and `${workspaceFolder}` when it
 * starts a server; Harbor keeps them as written and the import report lists them.
 */
export function readCursor(json: unknown, source: string): RawServers {
  return { entries: mcpServersEntries(json, source) };
}
