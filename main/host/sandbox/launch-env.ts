/**
 * The environment of the programs that set the sandbox up. Harbor starts a shell that starts
 * bubblewrap (Seatbelt's sandbox-exec on macOS), and both run OUTSIDE the sandbox, with the
 * person's rights: nothing of the server's environment may make them run code. A server's
 * `PATH` would pick their `bwrap`, `BASH_ENV`/`ENV`/`SHELLOPTS`+`PS4` would make the shell run a
 * script, `LD_PRELOAD` and its like would load a library into both, and a shell function
 * (`BASH_FUNC_bwrap%%`) would stand in for bubblewrap itself.
 *
 * So those variables travel under neutral names (`HARBOR_SANDBOX_ENV_<n>`, which nothing reads)
 * and are set back, as the server's own, only by the last command inside the sandbox, just before
 * the server starts (shell-command.ts). The shell and bubblewrap find their programs on Harbor's
 * own PATH. A shell function in a server's environment is refused: no program needs one, and it
 * would ride through every shell on the way.
 */
import { HarborError } from '../errors';
import { definesShellFunction } from '../registry/code-loading-env';

/** Variables the shell, bubblewrap or the dynamic loader read to run or load code. */
const OUTSIDE_READERS = new Set([
  'PATH',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'BASH_XTRACEFD',
  'BASH_COMPAT',
  'BASH_LOADABLES_PATH',
  'CDPATH',
  'EXECIGNORE',
  'GLOBIGNORE',
  'IFS',
  'POSIXLY_CORRECT',
  'GLIBC_TUNABLES',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
]);
const OUTSIDE_READER_PREFIXES = ['LD_', 'DYLD_'];

/** The names that carry those variables past the shells and bubblewrap. */
export const CARRIER_PREFIX = 'HARBOR_SANDBOX_ENV_';

/** Where the shell and bubblewrap look for programs when Harbor itself has no PATH. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface LaunchEnv {
  /** What the shell Harbor starts gets: the server's other variables, the carriers, Harbor's PATH. */
  readonly outer: Record<string, string>;
  /** Each variable set back inside the sandbox, with the carrier that holds its value. */
  readonly carried: ReadonlyArray<{ readonly name: string; readonly carrier: string }>;
}

function readOutside(name: string): boolean {
  return OUTSIDE_READERS.has(name) || OUTSIDE_READER_PREFIXES.some((prefix) => name.startsWith(prefix)) || name.startsWith(CARRIER_PREFIX);
}

/** Splits a server's environment for a sandboxed launch; throws (CONFIG_INVALID) on a shell function. */
export function splitLaunchEnv(server: string, env: Readonly<Record<string, string>>, hostPath: string | undefined): LaunchEnv {
  const outer: Record<string, string> = {};
  const carried: { name: string; carrier: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (definesShellFunction(name)) {
      throw new HarborError(
        'CONFIG_INVALID',
        `Server "${server}" sets ${name}, which defines a shell function: the sandbox's own shell would run it outside the sandbox. Remove it from the server's "env". Nothing was started.`,
      );
    }
    if (!readOutside(name)) {
      outer[name] = value;
      continue;
    }
    const carrier = `${CARRIER_PREFIX}${carried.length}`;
    outer[carrier] = value;
    carried.push({ name, carrier });
  }
  outer.PATH = hostPath || FALLBACK_PATH;
  return { outer, carried };
}
