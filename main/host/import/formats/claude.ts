import { mcpServersEntries } from './shape';
import type { RawServers } from './types';

/**
 * Claude Desktop's `claude_desktop_config.json`: `{"mcpServers": {name: {command, args, env}}}`,
 * remote entries as `{url}` or Claude Code's `{type: "http"|"sse", url, headers}`. Everything else
 * in the file (`globalShortcut`, `preferences`) belongs to Claude and is not imported.
 */
export function readClaudeDesktop(json: unknown, source: string): RawServers {
  return { entries: mcpServersEntries(json, source) };
}
