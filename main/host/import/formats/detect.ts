import { basename } from 'node:path';
import { isPlainObject } from './shape';
import type { ImportFormat } from './types';

/**
 * Which app wrote this file. VS Code is the one with `servers` (top level, or under `mcp` in a
 * settings.json); Claude Desktop and Cursor share `mcpServers` and are told apart by the file's
 * location or Cursor's `${env:…}` syntax. Returns undefined for a file none of them would read.
 */
export function detectFormat(json: unknown, sourcePath?: string): ImportFormat | undefined {
  if (!isPlainObject(json)) return undefined;
  // Decided by the key alone, so a malformed value ("mcpServers": [...]) gets the reader's
  // precise message instead of "unknown format".
  if (json.mcpServers !== undefined) {
    const path = (sourcePath ?? '').replaceAll('\\', '/');
    if (basename(path).toLowerCase() === 'claude_desktop_config.json') return 'claude-desktop';
    if (/(^|\/)\.cursor\//i.test(path)) return 'cursor';
    if (JSON.stringify(json.mcpServers).includes('${env:')) return 'cursor';
    return 'claude-desktop';
  }
  if (json.servers !== undefined) return 'vscode';
  if (isPlainObject(json.mcp) && isPlainObject(json.mcp.servers)) return 'vscode';
  return undefined;
}
