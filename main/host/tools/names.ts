import { createHash } from 'node:crypto';

/** Providers accept tool names of [a-zA-Z0-9_-], at most 64 characters. */
export const MAX_TOOL_NAME = 64;

export function sanitizeNamePart(raw: string): string {
  const clean = raw.replace(/[^a-zA-Z0-9_-]/gu, '_');
  return clean.length > 0 ? clean : '_';
}

export interface NameRequest {
  readonly server: string;
  readonly tool: string;
}

function suffix(request: NameRequest, hexLength: number): string {
  return createHash('sha256').update(`${request.server}\u0000${request.tool}`).digest('hex').slice(0, hexLength);
}

/**
 * Exposed names `server__tool`, sanitized and cut to 64 characters. When two tools end up with the
 * same name (after sanitizing or cutting), the first in (server, tool) order keeps it and each
 * other gets `_<hash of server and tool>`: deterministic, the same in every run and conversation,
 * and never a silent overwrite. Returns one name per request, in the order given.
 */
export function assignExposedNames(requests: readonly NameRequest[]): string[] {
  const bases = requests.map((r) => `${sanitizeNamePart(r.server)}__${sanitizeNamePart(r.tool)}`.slice(0, MAX_TOOL_NAME));
  const order = requests.map((_, i) => i).sort((a, b) => compare(requests[a]!, requests[b]!));
  const taken = new Set<string>();
  const names: string[] = new Array<string>(requests.length);
  for (const i of order) {
    const request = requests[i]!;
    let name = bases[i]!;
    for (let hexLength = 6; taken.has(name); hexLength += 2) {
      const tail = `_${suffix(request, hexLength)}`;
      name = `${bases[i]!.slice(0, MAX_TOOL_NAME - tail.length)}${tail}`;
    }
    taken.add(name);
    names[i] = name;
  }
  return names;
}

function compare(a: NameRequest, b: NameRequest): number {
  if (a.server !== b.server) return a.server < b.server ? -1 : 1;
  if (a.tool !== b.tool) return a.tool < b.tool ? -1 : 1;
  return 0;
}
