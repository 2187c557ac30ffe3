import { HarborError } from '../../errors';
import { describeValue } from '../../registry/messages';
import { isPlainObject } from './shape';
import type { RawServers } from './types';

/**
 * VS Code's `mcp.json` (user profile or `.vscode/mcp.json`): `{"servers": {name: entry},
 * "inputs": [{type: "promptString", id, description, password}]}`. Entries carry `type` ("stdio",
 * "http", "sse") and may reference `${input:id}`, which VS Code prompts for on first start (import
 * fills them: see placeholder-filling.ts). Also
 * read from a settings.json that nests the same object under `"mcp"`.
 */
export function readVsCode(json: unknown, source: string): RawServers {
  const root = isPlainObject(json) && json.servers === undefined && isPlainObject(json.mcp) ? json.mcp : json;
  const servers = isPlainObject(root) ? root.servers : undefined;
  if (!isPlainObject(servers)) {
    throw new HarborError(
      'CONFIG_INVALID',
      `${source}: "servers" must be an object of name → server, got ${describeValue(servers)}. Nothing was imported.`,
    );
  }
  const rawInputs = isPlainObject(root) && Array.isArray(root.inputs) ? (root.inputs as unknown[]) : [];
  const inputs = rawInputs.filter(isPlainObject).flatMap((input) =>
    typeof input.id === 'string'
      ? [
          {
            id: input.id,
            ...(typeof input.type === 'string' ? { type: input.type } : {}),
            ...(typeof input.description === 'string' ? { description: input.description } : {}),
            ...(typeof input.password === 'boolean' ? { password: input.password } : {}),
            ...(typeof input.default === 'string' ? { default: input.default } : {}),
          },
        ]
      : [],
  );
  return { entries: Object.entries(servers), inputs };
}
