/**
 * Where a stdio server starts and which PATH it gets: the person's, not Harbor's.
 *
 * Harbor started through `npx harbor` (or any npm script) runs with npm's additions at the head
 * of PATH — every `node_modules/.bin` from the project up to `/`, npx's cache, npm's node-gyp
 * shim — and those hold Harbor's own pinned Node: a server whose command is `node` or `npx`
 * would run on Harbor's Node instead of the person's. And its working folder is wherever Harbor
 * happened to be started, so relative paths in a server's args meant something different each
 * time. So servers get the person's login-shell PATH, then the rest of Harbor's own PATH, minus
 * Harbor's tool folders; and they start in the person's home folder unless the registry says
 * `"cwd"`. Bundled servers still reach Harbor's Node by its absolute path, `${harbor:node}`.
 */
import { homedir } from 'node:os';
import { dirname, posix, win32 } from 'node:path';

export interface ServerPathOptions {
  /** The PATH Harbor itself was started with. */
  readonly own: string | undefined;
  /** The login shell's PATH, when known. */
  readonly login: string | undefined;
  /** The Node running Harbor (`process.execPath`): its folder goes when it is a bundled copy. */
  readonly execPath?: string;
  readonly platform?: NodeJS.Platform;
}

/** The PATH a stdio server gets: login-shell folders first, then Harbor's other folders, none of Harbor's tool folders. */
export function serverPath(options: ServerPathOptions): string | undefined {
  const platform = options.platform ?? process.platform;
  const separator = platform === 'win32' ? ';' : ':';
  const harbors = harborToolFolder(platform, options.execPath ?? process.execPath);
  const own = (options.own ?? '').split(separator).filter((dir) => dir !== '' && !harbors(dir));
  const login = (options.login ?? '').split(separator).filter((dir) => dir !== '');
  const dirs = [...new Set([...login, ...own])];
  return dirs.length > 0 ? dirs.join(separator) : undefined;
}

/** Harbor's own environment with Harbor's tool folders taken out of PATH (what a login shell is started with). */
export function withoutHarborToolFolders(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, execPath = process.execPath): NodeJS.ProcessEnv {
  const path = serverPath({ own: env.PATH, login: undefined, platform, execPath });
  const cleaned = { ...env };
  if (path === undefined) delete cleaned.PATH;
  else cleaned.PATH = path;
  return cleaned;
}

/**
 * Whether a PATH folder is one npm or npx put there for Harbor: any `node_modules/.bin` (the
 * project's chain and npx's cache), npm's `node-gyp-bin` shim folder, and the folder of the Node
 * running Harbor when that Node is a bundled copy inside a node_modules folder.
 */
export function harborToolFolder(platform: NodeJS.Platform, execPath: string): (dir: string) => boolean {
  const path = platform === 'win32' ? win32 : posix;
  const normalize = (dir: string) => {
    const plain = path.normalize(dir.replace(/^"(.*)"$/, '$1')).replace(/[\\/]+$/, '');
    return platform === 'win32' ? plain.toLowerCase().replace(/\//g, '\\') : plain;
  };
  const nodeDir = normalize(platform === 'win32' ? win32.dirname(execPath) : dirname(execPath));
  const bundledNode = /[\\/]node_modules[\\/]/.test(execPath) ? nodeDir : undefined;
  return (dir) => {
    const plain = normalize(dir);
    const parts = plain.split(/[\\/]/);
    const last = parts[parts.length - 1];
    const parent = parts[parts.length - 2];
    if (last === '.bin' && parent === 'node_modules') return true;
    if (last === 'node-gyp-bin' && /[\\/]@npmcli[\\/]run-script[\\/]/.test(plain)) return true;
    return bundledNode !== undefined && plain === bundledNode;
  };
}

/**
 * The folder a stdio server starts in: the registry's `cwd` (`~` is the home folder, a relative
 * path is taken from the home folder), or the home folder itself.
 */
export function serverWorkingFolder(cwd: string | undefined, home = homedir(), platform: NodeJS.Platform = process.platform): string {
  const path = platform === 'win32' ? win32 : posix;
  if (cwd === undefined || cwd.trim() === '') return home;
  if (cwd === '~') return home;
  if (/^~[\\/]/.test(cwd)) return path.join(home, cwd.slice(2));
  return path.resolve(home, cwd);
}
