import { createHash } from 'node:crypto';
import { canonical } from '../canonical-json';
import { isStdio, type ServerConfig } from '../registry/schema';

/**
 * A server as consent knows it: the name the person gave it (what dialogs and lists show) and its
 * identity (what every decision is keyed by). Names are labels: a different server added later
 * under a removed one's name has another identity and inherits nothing.
 */
export interface ServerRef {
  readonly name: string;
  readonly identity: string;
}

const digest = (value: unknown) => createHash('sha256').update(canonical(value)).digest('hex').slice(0, 32);

const isLegacySse = (config: ServerConfig) => !isStdio(config) && (config.transport === 'sse' || config.type === 'sse');

/**
 * What a server is, from its registry entry as written (before `${harbor:…}` is expanded, so the
 * app and the CLI, whose Node paths differ, agree): a stdio server is its launch — command, args,
 * env (secrets as their `${secret:…}` references) and cwd; a remote server is its URL and what it
 * signs in with (its `oauth` block: authorization server, client, scopes, grant), so replacing the
 * block under the same URL is another server (#27.8). Harbor's own switches (trusted, timeouts,
 * disabled tools) and the name are not part of it.
 */
export function serverIdentity(config: ServerConfig): string {
  if (isStdio(config)) return `stdio:${digest({ command: config.command, args: config.args ?? [], env: config.env ?? {}, cwd: config.cwd ?? null })}`;
  // Without an oauth block: the digest earlier versions keyed decisions by (nothing to re-approve).
  return `http:${digest(config.oauth === undefined ? { url: config.url } : { url: config.url, oauth: config.oauth })}`;
}


export function serverRef(name: string, config: ServerConfig): ServerRef {
  return { name, identity: serverIdentity(config) };
}

/**
 * What a launch approval covers. A stdio server: its identity, the whole launch. A remote server:
 * its URL, the NAMES of the headers it is sent (values are secrets or the person's; a secret in
 * them needs its own grant), its transport and its `oauth` block — a new header, another address
 * or another way of signing in asks again.
 */
export function launchKey(config: ServerConfig): string {
  if (isStdio(config)) return serverIdentity(config);
  const launch = { url: config.url, headers: headerNames(config), sse: isLegacySse(config) };
  return `http:${digest(config.oauth === undefined ? launch : { ...launch, oauth: config.oauth })}`;
}

/** A remote server's header names, sorted, as HTTP compares them (case-insensitively). */
export function headerNames(config: ServerConfig): string[] {
  if (isStdio(config)) return [];
  return [...new Set(Object.keys(config.headers ?? {}).map((name) => name.toLowerCase()))].sort();
}

/** A remote launch as one line for lists: the URL, then the header names it is sent with. */
export function describeRemote(url: string, headers: readonly string[], legacySse = false): string {
  return `${url}${legacySse ? ' (HTTP+SSE)' : ''}${headers.length ? ` with headers ${headers.join(', ')}` : ''}`;
}
