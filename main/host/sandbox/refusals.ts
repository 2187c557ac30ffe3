/**
 * What the sandbox refused a server, read from the two places that say so: the runtime's
 * violation lines (its filtering proxy refusing a connection, its Linux write monitor, macOS's
 * Seatbelt log) and the server's own stderr (a write to the read-only file system, a read of a
 * hidden folder, which on Linux looks empty). Each refusal carries, where one makes sense, the
 * one change to the server's sandbox rules that would allow it.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInside } from './policy';

export type SandboxRefusalKind = 'write' | 'read' | 'network';

/** One edit of a server's `"sandbox"` rules. */
export type SandboxChange =
  | { readonly kind: 'allowWrite'; readonly path: string }
  | { readonly kind: 'allowDomain'; readonly domain: string }
  | { readonly kind: 'stopHiding'; readonly path: string };

export interface SandboxRefusal {
  readonly kind: SandboxRefusalKind;
  /** The path or host:port refused. */
  readonly target: string;
  readonly change?: SandboxChange;
}

/** What a parser needs to know about the server's sandbox. */
export interface RefusalContext {
  readonly home: string;
  /** Hidden by Harbor itself: never offered. */
  readonly alwaysHidden: readonly string[];
  /** Hidden by the person's own denyRead. */
  readonly personHidden: readonly string[];
  /** Already writable (a write there was refused for another reason: a runtime-protected file). */
  readonly allowWrite: readonly string[];
}

/** Ports a host is allowed on without naming them. */
const WEB_PORTS = new Set(['80', '443']);

/** A violation line of the runtime → a refusal, or undefined for lines that are not about this. */
export function refusalFromViolation(line: string, context: RefusalContext): SandboxRefusal | undefined {
  const network = /deny network-outbound (\S+?)(?::(\d+))? \(([^)]*)\)/.exec(line);
  if (network) {
    const [, host, port, reason] = network as unknown as [string, string, string | undefined, string];
    const target = port ? `${host}:${port}` : host;
    // Only a host missing from the list can be allowed by listing it: a name resolving to a
    // loopback or private address stays refused whatever the list says.
    const listable = /not on the allow list|not allowed|denied by user|user denied/i.test(reason) || reason === '';
    const domain = port && !WEB_PORTS.has(port) ? target : host;
    return { kind: 'network', target, ...(listable ? { change: { kind: 'allowDomain', domain } } : {}) };
  }
  const fileOp = /deny(?:\(\d+\))?\s+(\S+)\s+(\/.*?)\s*$/.exec(line);
  if (!fileOp) return undefined;
  const [, op, path] = fileOp as unknown as [string, string, string];
  if (/read/.test(op) && !/write/.test(op)) return readRefusal(path, context);
  if (/network/.test(op)) return { kind: 'network', target: path };
  // A directory that already exists was not created or written: `mkdir -p` walking its parents.
  if (/mkdir/.test(op) && isDirectory(path)) return undefined;
  // The Linux monitor reports write *attempts* against the runtime's own (empty) list: inside
  // this server's writable folders the attempt succeeded.
  if (context.allowWrite.some((allowed) => isInside(path, allowed))) return undefined;
  return writeRefusal(path, context);
}

/** A stderr line of the server → a refusal, when it shows one. */
export function refusalFromStderr(line: string, context: RefusalContext): SandboxRefusal | undefined {
  const paths = absolutePathsIn(line);
  if (paths.length === 0) return undefined;
  if (/EROFS|read-only file system/i.test(line)) return writeRefusal(paths[0]!, context);
  if (/ENOENT|no such file|EACCES|permission denied|EPERM|operation not permitted/i.test(line)) {
    const hidden = paths.find((path) => hiddenBy(path, context) !== undefined);
    if (hidden) return readRefusal(hidden, context);
  }
  return undefined;
}

function writeRefusal(path: string, context: RefusalContext): SandboxRefusal {
  if (hiddenBy(path, context) !== undefined || context.allowWrite.some((allowed) => isInside(path, allowed))) return { kind: 'write', target: path };
  // The folder it wrote into; a file right in the home folder or at the top is offered alone.
  const folder = isDirectory(path) ? path : dirname(path);
  const offer = folder === '/' || folder === context.home ? path : folder;
  return { kind: 'write', target: path, change: { kind: 'allowWrite', path: offer } };
}

function readRefusal(path: string, context: RefusalContext): SandboxRefusal {
  const hidden = hiddenBy(path, context);
  if (hidden && hidden.byPerson) return { kind: 'read', target: path, change: { kind: 'stopHiding', path: hidden.entry } };
  return { kind: 'read', target: path };
}

function hiddenBy(path: string, context: RefusalContext): { entry: string; byPerson: boolean } | undefined {
  const always = context.alwaysHidden.find((entry) => isInside(path, entry));
  if (always) return { entry: always, byPerson: false };
  const own = context.personHidden.find((entry) => isInside(path, entry));
  return own ? { entry: own, byPerson: true } : undefined;
}

/** Quoted absolute paths first (they may hold spaces), then bare ones. */
function absolutePathsIn(line: string): string[] {
  const quoted = [...line.matchAll(/(['"`])(\/[^'"`\n]+)\1/g)].map((m) => m[2]!);
  const bare = [...line.matchAll(/(?:^|[\s(=])(\/[^\s'"`,;()]+)/g)].map((m) => m[1]!.replace(/[:.]+$/, ''));
  return [...new Set([...quoted, ...bare])];
}

function isDirectory(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** One line for the server's log: what was refused and, when there is one, the change that allows it. */
export function describeRefusal(refusal: SandboxRefusal): string {
  const what =
    refusal.kind === 'network' ? `a connection to ${refusal.target}` : refusal.kind === 'write' ? `writing to ${refusal.target}` : `reading ${refusal.target}`;
  return `[sandbox] refused ${what}${refusal.change ? ` (to allow it: ${describeChange(refusal.change)})` : ''}`;
}

/** The registry rule a change adds (or the edit it makes), as the person would write it in harbor.json. */
export function registryRule(change: SandboxChange): string {
  if (change.kind === 'allowWrite') return `"sandbox": { "allowWrite": [${JSON.stringify(change.path)}] }`;
  if (change.kind === 'allowDomain') return `"sandbox": { "allowedDomains": [${JSON.stringify(change.domain)}] }`;
  return `remove ${JSON.stringify(change.path)} from "sandbox": { "denyRead": [...] }`;
}

export function describeChange(change: SandboxChange): string {
  if (change.kind === 'allowWrite') return `allow writing to ${change.path}`;
  if (change.kind === 'allowDomain') return `allow ${change.domain}`;
  return `stop hiding ${change.path}`;
}
