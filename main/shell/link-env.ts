/**
 * Which environment variables a `harbor://` link may give the server it proposes.
 *
 * A link comes from a web page: whatever it sets, the person approves by reading a command line.
 * Most variables are the server's own settings (GITHUB_API_URL, SLACK_TEAM_ID) and a list of
 * allowed names cannot know them, so the rule is the other way round, by families: a variable that
 * a loader, a language runtime, a package manager, a shell, git/ssh or the TLS stack reads (to load
 * other code, fetch packages from elsewhere, trust other certificates or look for its settings in
 * another home) turns an innocent-looking `npx some-server` into something else, and is refused.
 * On top of that, only plain names (upper-case letters, digits, "_", starting with a letter): the
 * lower-case hook style (`npm_config_*`) and names that differ only in case (Windows reads `Path` as
 * PATH) do not pass. Values must be one line of visible text.
 *
 * Values are not checked for shell metacharacters: Harbor starts servers without a shell (their
 * arguments are escaped even for Windows .cmd shims), so `;`, `&` or `$(…)` mean nothing to it,
 * and legitimate values (URLs with `&`, JSON) contain them. The danger is in the names.
 *
 * A person who needs such a variable adds the server in Harbor itself, where it is their choice.
 */

import { loadsCode } from '../host/registry/code-loading-env';

/** Name prefixes of runtime and tool hooks (each also refuses the bare name without its "_"). */
const HOOK_PREFIXES = [
  // dynamic loaders, glibc
  'LD_', 'DYLD_', 'GCONV_', 'GLIBC_',
  // Node.js, Electron and JavaScript package managers
  'NODE_', 'ELECTRON_', 'NPM_', 'YARN_', 'PNPM_', 'BUN_', 'DENO_', 'COREPACK_',
  // Python and its installers
  'PYTHON', 'PIP_', 'PIPX_', 'UV_', 'CONDA_', 'POETRY_',
  // JVM, .NET (startup hooks, profilers)
  'JAVA_', 'JDK_', 'MAVEN_', 'GRADLE_', 'DOTNET_', 'COR_', 'CORECLR_', 'COMPLUS_',
  // Ruby, Perl, Lua, Rust
  'RUBY', 'GEM_', 'BUNDLE_', 'PERL', 'LUA_', 'CARGO_', 'RUSTC', 'RUSTUP_',
  // git and ssh (GIT_SSH_COMMAND, GIT_CONFIG_*), where tools look for settings, TLS
  'GIT_', 'SSH_', 'XDG_', 'OPENSSL_', 'SSL_CERT_',
] as const;

/** Single variables with the same power. */
const HOOK_NAMES = new Set([
  // where programs are found and what "home" is
  'PATH', 'PATHEXT', 'COMSPEC', 'HOME', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA', 'SYSTEMROOT', 'WINDIR', 'TMPDIR', 'TEMP', 'TMP',
  // shells run these
  'SHELL', 'ENV', 'BASH_ENV', 'ZDOTDIR', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'PROMPT_COMMAND', 'IFS', 'CDPATH', 'PSMODULEPATH',
  // language runtimes without a common prefix
  'CLASSPATH', 'VIRTUAL_ENV', 'PHPRC', 'RUSTFLAGS', 'GOFLAGS', 'GOPROXY', 'GOSUMDB', 'GONOSUMDB', 'GONOSUMCHECK', 'GOINSECURE', 'GOPRIVATE', 'GOTOOLCHAIN', 'GOENV', 'GOROOT', 'GOPATH',
  // programs that tools start for you
  'EDITOR', 'VISUAL', 'PAGER', 'BROWSER', 'LESSOPEN', 'LESSCLOSE',
  // C library lookups
  'LOCPATH', 'NLSPATH', 'HOSTALIASES',
  // whose certificates are trusted, and where traffic goes
  'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY',
]);

const PLAIN_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;
/** Controls, bidi/format characters, invisible characters, line separators. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Whether a link may never set `name`: Harbor's one code-loading list (registry/code-loading-env.ts,
 * the gallery's, bundles' and imports' too), and on top of it the families above, which a link
 * refuses although an install only warns about them. Compared in upper case: npm reads
 * npm_config_* as NPM_CONFIG_*, Windows reads Path as PATH.
 */
export function linkLoadsCode(name: string): boolean {
  const upper = name.toUpperCase();
  return loadsCode(name) || HOOK_NAMES.has(upper) || HOOK_PREFIXES.some((prefix) => upper.startsWith(prefix) || `${upper}_` === prefix);
}

/** Why a link may not set `name`, or undefined when it may. */
export function linkEnvNameProblem(name: string): string | undefined {
  if (linkLoadsCode(name)) {
    return `${printable(name)} changes which code runs, where packages come from or which certificates are trusted (loader, runtime, package-manager, shell, git/ssh and TLS variables such as PATH, NODE_OPTIONS, NPM_CONFIG_*, PYTHON*, LD_*): not accepted from a link`;
  }
  if (!PLAIN_NAME.test(name)) return `"${printable(name)}" is not a plain variable name (upper-case letters, digits and "_", starting with a letter)`;
  return undefined;
}

/** A name for a message: anything but printable ASCII as "?" (the name came from a web page). */
export const printable = (text: string) => text.replace(/[^\x20-\x7e]/g, '?');

/** Why a link may not give a variable `value`, or undefined when it may. */
export function linkEnvValueProblem(value: string): string | undefined {
  return UNSEEN.test(value) ? 'is not one line of visible text (it has control, invisible or bidi characters)' : undefined;
}
