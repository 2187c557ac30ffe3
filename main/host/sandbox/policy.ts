/**
 * What one sandboxed server may do, from its registry rules and where Harbor keeps its own files.
 * Pure: the runtime (runtime.ts) hands the result to @anthropic-ai/sandbox-runtime.
 *
 * - Writes: nothing but the server's own temporary folder and the person's `allowWrite`. The
 *   runtime's own convenience folders (its /tmp/claude, ~/.npm/_logs, ~/.claude/debug) are
 *   denied again: they would be shared by every sandboxed server.
 * - Reads: everything but Harbor's data and app folders, the registry file, SSH/AWS/GnuPG keys,
 *   the keychain's files, and the person's `denyRead`. Inside the data folder a server reads
 *   back only the folders Harbor's records say are its own (own-folders.ts: its installed
 *   bundle, the example server's notes), whatever its launch names.
 * - Network: only `allowedDomains`, through the runtime's filtering proxy.
 */
import { isAbsolute, join, relative } from 'node:path';
import type { SandboxRules } from '../registry/sandbox-config';

export interface PolicyContext {
  readonly home: string;
  /** Harbor's data folder (consent.db, conversations, bundles, …). */
  readonly dataDir: string;
  /** The app's own folder, when it differs from the data folder (the CLI with --data-dir). */
  readonly appDir?: string;
  /** The registry file. */
  readonly configPath?: string;
  /** The server's own temporary folder: TMPDIR inside the sandbox. */
  readonly tempDir: string;
  /** Where the keyring daemon keeps its files when XDG_DATA_HOME moves them. */
  readonly xdgDataHome?: string;
  /**
   * The folders of the data folder that are the server's own, already resolved and judged
   * (own-folders.ts). Never derived from what the launch names.
   */
  readonly ownFolders: readonly string[];
}

export interface SandboxPolicy {
  readonly allowWrite: string[];
  readonly denyWrite: string[];
  readonly denyRead: string[];
  readonly allowRead: string[];
  readonly allowedDomains: string[];
  /** What Harbor always hides: never offered to "stop hiding". */
  readonly alwaysHidden: string[];
  /** What the person's own `denyRead` hides (absolute). */
  readonly personHidden: string[];
}

/** The folders whose files are secrets of the person's, hidden from every sandboxed server. */
export function alwaysHiddenPaths(context: Pick<PolicyContext, 'home' | 'dataDir' | 'appDir' | 'configPath' | 'xdgDataHome'>): string[] {
  const { home } = context;
  return unique([
    context.dataDir,
    ...(context.appDir ? [context.appDir] : []),
    ...(context.configPath ? [context.configPath] : []),
    join(home, '.ssh'),
    join(home, '.aws'),
    join(home, '.gnupg'),
    // The keychain's files: gnome-keyring / KWallet on Linux, the login keychain on macOS.
    join(home, '.local', 'share', 'keyrings'),
    ...(context.xdgDataHome ? [join(context.xdgDataHome, 'keyrings')] : []),
    join(home, 'Library', 'Keychains'),
  ]);
}

/** Writable by default in the runtime, and shared by every command it wraps. */
function runtimeConvenienceWrites(home: string): string[] {
  return ['/tmp/claude', '/private/tmp/claude', join(home, '.npm', '_logs'), join(home, '.claude', 'debug')];
}

export function buildPolicy(rules: SandboxRules, context: PolicyContext): SandboxPolicy {
  const expand = (path: string): string => expandHome(path, context.home);
  const alwaysHidden = alwaysHiddenPaths(context);
  const personHidden = unique((rules.denyRead ?? []).map(expand));
  const allowWrite = unique([context.tempDir, ...(rules.allowWrite ?? []).map(expand)]);
  return {
    allowWrite,
    denyWrite: runtimeConvenienceWrites(context.home).filter((path) => !allowWrite.includes(path)),
    denyRead: unique([...alwaysHidden, ...personHidden]),
    allowRead: ownFolders(context.dataDir, context.ownFolders),
    allowedDomains: unique(rules.allowedDomains ?? []),
    alwaysHidden,
    personHidden,
  };
}

/** `~` and `~/x` against the home folder; anything else as written. */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

/** True when `path` is `folder` or lies inside it. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The server's own folders, each strictly inside the data folder (never the folder itself). */
function ownFolders(dataDir: string, own: readonly string[]): string[] {
  return unique(own.filter((path) => isAbsolute(path) && relative(dataDir, path) !== '' && isInside(path, dataDir)));
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
