import { HarborError } from '../../errors';
import { describeValue } from '../../registry/messages';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `{"mcpServers": {name: entry}}` object that Claude Desktop, Cursor and Harbor share. */
export function mcpServersEntries(json: unknown, source: string): Array<[string, unknown]> {
  const servers = isPlainObject(json) ? json.mcpServers : undefined;
  if (!isPlainObject(servers)) {
    throw new HarborError(
      'CONFIG_INVALID',
      `${source}: "mcpServers" must be an object of name → server, got ${describeValue(servers)}. Nothing was imported.`,
    );
  }
  return Object.entries(servers);
}
