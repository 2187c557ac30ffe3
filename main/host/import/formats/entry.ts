import { describeValue, registryErrorMap } from '../../registry/messages';
import { ServerConfig } from '../../registry/schema';
import { formatIssues } from '../../registry/store';

export type NormalisedEntry =
  | { readonly ok: true; readonly config: ServerConfig; readonly warnings: string[] }
  | { readonly ok: false; readonly problems: string[] };

/** Fields each app uses that Harbor reads (everything else is reported as ignored). */
const STDIO_FIELDS = new Set(['type', 'command', 'args', 'env', 'cwd', 'envFile']);
const REMOTE_FIELDS = new Set(['type', 'url', 'serverUrl', 'headers', 'transport']);
const COMMON_FIELDS = new Set(['disabled', 'enabled', 'timeoutMs', 'trusted']);

/**
 * One server entry from Claude Desktop, VS Code or Cursor → Harbor's shape: stdio
 * `{command, args, env, cwd}` or remote `{url, headers, transport?}`. The apps' shapes differ only
 * in small ways (VS Code's explicit `type`, Windsurf's `serverUrl`, `disabled` flags), so one
 * normaliser serves all three. Values are never rewritten: `${input:…}` and `${env:…}` stay as
 * they are and are reported by the scanner.
 */
export function normaliseEntry(raw: unknown): NormalisedEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, problems: [`expected an object with "command" or "url", got ${describeValue(raw)}`] };
  }
  const entry = raw as Record<string, unknown>;
  const kind = kindOf(entry);
  if (typeof kind === 'object') return { ok: false, problems: [kind.problem] };

  const problems: string[] = [];
  const warnings: string[] = [];
  const config: Record<string, unknown> = {};

  if (kind === 'stdio') {
    config.command = entry.command;
    if (entry.args !== undefined) config.args = stringList(entry.args, 'args', problems, warnings);
    if (entry.env !== undefined) config.env = stringMap(entry.env, 'env', problems, warnings);
    if (entry.cwd !== undefined) config.cwd = entry.cwd;
    if (entry.envFile !== undefined) {
      warnings.push(
        'envFile is not supported: the variables in that file were not imported. Add the ones the server needs to its "env".',
      );
    }
  } else {
    config.url = entry.url ?? entry.serverUrl;
    if (entry.headers !== undefined) config.headers = stringMap(entry.headers, 'headers', problems, warnings);
    if (kind === 'sse' || entry.transport === 'sse') config.transport = 'sse';
  }

  // Harbor's own switches: an app's "disabled" carries over; trust is never imported.
  if (entry.disabled === true || entry.enabled === false) config.enabled = false;
  if (entry.timeoutMs !== undefined) config.timeoutMs = entry.timeoutMs;
  if (entry.trusted !== undefined) warnings.push('"trusted" was not imported: decide whether to trust this server in Harbor.');

  const known = kind === 'stdio' ? STDIO_FIELDS : REMOTE_FIELDS;
  const ignored = Object.keys(entry).filter((key) => !known.has(key) && !COMMON_FIELDS.has(key));
  if (ignored.length) warnings.push(`ignored field${ignored.length === 1 ? '' : 's'} Harbor does not use: ${ignored.join(', ')}`);

  if (problems.length) return { ok: false, problems };
  const checked = ServerConfig.safeParse(config, { error: registryErrorMap });
  if (!checked.success) return { ok: false, problems: formatIssues(checked.error.issues) };
  return { ok: true, config: checked.data, warnings };
}

type Kind = 'stdio' | 'http' | 'sse';

function kindOf(entry: Record<string, unknown>): Kind | { problem: string } {
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined || entry.serverUrl !== undefined;
  const type = entry.type;
  if (type !== undefined) {
    if (type === 'stdio') return hasCommand ? 'stdio' : { problem: 'command: is required for a "stdio" server' };
    if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp' || type === 'sse') {
      if (!hasUrl) return { problem: `url: is required for an "${type}" server` };
      return type === 'sse' ? 'sse' : 'http';
    }
    return { problem: `type: expected "stdio", "http" or "sse", got ${typeof type === 'string' ? JSON.stringify(type) : describeValue(type)}` };
  }
  if (hasCommand && hasUrl) return { problem: 'has both "command" and "url": keep "command" for a local server or "url" for a remote one' };
  if (hasCommand) return 'stdio';
  if (hasUrl) return 'http';
  return { problem: 'needs either "command" (a local stdio server) or "url" (a remote server)' };
}

/**
 * Apps accept `"args": ["--port", 3000]` and `"env": {"DEBUG": true}` and pass them as strings;
 * Harbor stores strings, so numbers and booleans are converted (and said so), anything else is a
 * problem with its path.
 */
function toText(value: unknown, path: string, problems: string[], warnings: string[]): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') {
    warnings.push(`${path}: ${typeof value} converted to a string`); // the value itself is not echoed: it may be a secret
    return String(value);
  }
  problems.push(`${path}: expected string, got ${describeValue(value)}`);
  return undefined;
}

function stringList(value: unknown, path: string, problems: string[], warnings: string[]): unknown {
  if (!Array.isArray(value)) {
    problems.push(`${path}: expected an array of strings, got ${describeValue(value)}`);
    return value;
  }
  return value.map((item: unknown, i) => toText(item, `${path}[${i}]`, problems, warnings));
}

function stringMap(value: unknown, path: string, problems: string[], warnings: string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${path}: expected an object of name → string, got ${describeValue(value)}`);
    return value;
  }
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const where = /^[A-Za-z_][\w-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
    if (item === null) {
      // VS Code: null unsets a variable. Harbor starts servers from an allowlist anyway.
      warnings.push(`${where}: null (unset) dropped`);
      continue;
    }
    const text = toText(item, where, problems, warnings);
    if (text !== undefined) out[key] = text;
  }
  return out;
}
