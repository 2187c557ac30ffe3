import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A root as a server sees it (`roots/list`): a file:// URI and a name to show. */
export interface ResolvedRoot {
  readonly uri: string;
  readonly name: string;
  /** The folder on this machine. */
  readonly path: string;
}

/** Where `~` points; tests pass their own. */
export interface RootContext {
  readonly home?: string;
}

/** Control characters in a path are never meant: they only hide what the path really is. */
const CONTROL = /\p{Cc}/u;

/** A `..` segment anywhere, also percent-encoded (`%2e%2e`), between / or \ separators. */
function hasTraversal(text: string): boolean {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: the raw text is checked as it is.
  }
  return [text, decoded].some((candidate) => candidate.split(/[\\/]/).some((segment) => segment === '..'));
}

/**
 * The folder a roots entry names ("/abs/path", "file:///abs/path", "~/projects/x"), or what is
 * wrong with it. Only the shape is checked here; whether the folder exists is `rootProblem`'s job.
 */
export function rootPath(entry: string, context: RootContext = {}): { readonly path: string } | { readonly problem: string } {
  const home = context.home ?? homedir();
  if (entry.trim() === '') return { problem: 'a root must not be empty' };
  if (CONTROL.test(entry)) return { problem: 'a root must not contain control characters' };
  if (hasTraversal(entry)) return { problem: `"${entry}" goes up a folder with "..": write the folder itself, without ".."` };
  let path: string;
  if (entry.startsWith('file:')) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { problem: `"${entry}" is not a valid file:// URI` };
    }
    if (url.host !== '' && url.host !== 'localhost') return { problem: `"${entry}" names another machine ("${url.host}"): a root must be a folder on this one` };
    if (url.search || url.hash) return { problem: `"${entry}" has a query or fragment: a root is a plain folder URI` };
    path = fileURLToPath(url);
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return { problem: `"${entry}" is not a folder: a root is a file:// URI or a path` };
  } else if (entry === '~' || entry.startsWith('~/') || entry.startsWith('~\\')) {
    path = home + entry.slice(1);
  } else if (entry.startsWith('~')) {
    return { problem: `"${entry}": only "~/…" (your own home folder) is understood, not "~user"` };
  } else {
    path = entry;
  }
  if (!isAbsolute(path)) return { problem: `"${entry}" is not an absolute path: write the full path (e.g. "/home/me/project" or "~/project")` };
  const normalized = normalize(path);
  return { path: normalized.length > 1 ? normalized.replace(/[\\/]+$/, '') : normalized };
}

/** What is wrong with a roots entry — its shape, or a folder that does not exist — or undefined. */
export function rootProblem(entry: string, context: RootContext = {}): string | undefined {
  const resolved = rootPath(entry, context);
  if ('problem' in resolved) return resolved.problem;
  let isFolder: boolean;
  try {
    isFolder = statSync(resolved.path).isDirectory();
  } catch {
    return `the folder ${resolved.path} does not exist: create it, or remove it from "roots"`;
  }
  if (!isFolder) return `${resolved.path} is a file, not a folder: a root must be a folder`;
  return undefined;
}

/** The problems of a server's "roots", one line each with the entry's place ("roots[1]: …"). */
export function rootsProblems(entries: readonly string[] | undefined, context: RootContext = {}): string[] {
  return (entries ?? []).flatMap((entry, index) => {
    const problem = rootProblem(entry, context);
    return problem ? [`roots[${index}]: ${problem}`] : [];
  });
}

/** A server's roots as `roots/list` answers them; entries with a problem are left out. */
export function resolveRoots(entries: readonly string[] | undefined, context: RootContext = {}): ResolvedRoot[] {
  const roots: ResolvedRoot[] = [];
  const seen = new Set<string>();
  for (const entry of entries ?? []) {
    if (rootProblem(entry, context)) continue;
    const resolved = rootPath(entry, context);
    if ('problem' in resolved) continue;
    const uri = pathToFileURL(resolved.path).href;
    if (seen.has(uri)) continue;
    seen.add(uri);
    roots.push({ uri, name: basename(resolved.path) || resolved.path, path: resolved.path });
  }
  return roots;
}
