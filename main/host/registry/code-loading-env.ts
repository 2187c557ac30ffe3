/**
 * The one place that decides which environment variables make a runtime load or fetch code: a
 * value in one of them runs code the person never saw (`NODE_OPTIONS=--import=data:…`,
 * `LD_PRELOAD=…`) or fetches packages from somewhere else (`NPM_CONFIG_REGISTRY=http://…`).
 * Installs from the gallery, bundles and imports show such a variable with a warning and write it
 * only when the person allowed it by name (the CLI's `--allow-env NAME`, a box per variable in the
 * app). Names are compared without case: Windows reads them so, and npm reads `npm_config_*` too.
 */

/** Exact names (upper case). */
const NAMES = new Set([
  // Where every runner reads its own configuration from (.npmrc, pip.conf, uv.toml, .gitconfig…)
  'HOME',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  // Programs that other programs start, and how the C library and OpenSSL load modules
  'BROWSER',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'GCONV_PATH',
  'GLIBC_TUNABLES',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
  'OPENSSL_MODULES',
  'PYTHONWARNINGS',
  // Where downloads go through, and which certificates they trust
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'CURL_CA_BUNDLE',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'DOTNET_ROOT',
  'NUGET_PLUGIN_PATHS',
  // Node
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'ELECTRON_RUN_AS_NODE',
  // the dynamic linker
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  // Python, pip and uv
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONUSERBASE',
  'PYTHONEXECUTABLE',
  'PYTHONINSPECT',
  'UV_INDEX',
  'UV_INDEX_URL',
  'UV_EXTRA_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_FIND_LINKS',
  'UV_CONFIG_FILE',
  'UV_PYTHON_INSTALL_MIRROR',
  'UV_PYPY_INSTALL_MIRROR',
  'UV_INSECURE_HOST',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_FIND_LINKS',
  'PIP_CONFIG_FILE',
  'PIP_TRUSTED_HOST',
  'REQUESTS_CA_BUNDLE',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Perl, Ruby
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_GEMFILE',
  // Java, .NET
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'DOTNET_STARTUP_HOOKS',
  'DOTNET_ADDITIONAL_DEPS',
  'NUGET_PACKAGES',
  'RESTORE_CONFIG_FILE',
  // shells: files sourced when a shell starts, or a command run before every prompt
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'PS4',
  // which programs run at all, and where docker runs them
  'PATH',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH',
  'GIT_CONFIG_GLOBAL',
  // the outsider's round (#27): a second variable that does what NODE_OPTIONS or a registry URL does
  'BUN_OPTIONS',
  'CONTAINER_HOST',
  'CONTAINERS_CONF',
  'CONTAINERS_REGISTRIES_CONF',
  'REGISTRIES_CONFIG_PATH',
  'DOCKER_CONTEXT',
  'DOCKER_CERT_PATH',
  'DOCKER_TLS_VERIFY',
  // Go fetches, checks and builds the code it runs
  'GOPROXY',
  'GOFLAGS',
  'GOSUMDB',
  'GONOSUMDB',
  'GONOSUMCHECK',
  'GOINSECURE',
  'GOPRIVATE',
  'GONOPROXY',
  'GOTOOLCHAIN',
  'GOENV',
  'GOPATH',
  'GOROOT',
  // compilers and build tools a native package's install runs (node-gyp, pip building from source)
  'CC',
  'CXX',
  'CPP',
  'LD',
  'AR',
  'LDSHARED',
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'MAKEFLAGS',
  'MAKEFILES',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTFLAGS',
  // other runtimes' start-up code
  'JAVA_OPTS',
  'JAVA_HOME',
  'RUBYGEMS_GEMDEPS',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'LUA_INIT',
  'LUA_PATH',
  'LUA_CPATH',
  'ERL_AFLAGS',
  'ERL_FLAGS',
  'ERL_ZFLAGS',
  'ELIXIR_ERL_OPTIONS',
  'NODE_REPL_EXTERNAL_MODULE',
  'NODE_ICU_DATA',
  'PYTHONBREAKPOINT',
  'PYTHONHTTPSVERIFY',
  'PSMODULEPATH',
  // the shell other programs start, and Windows' command processor and what it runs
  'SHELL',
  'COMSPEC',
  'PATHEXT',
  'MANPAGER',
  'BASHOPTS',
  // configuration files whose credential helpers run a command
  'AWS_CONFIG_FILE',
  'KUBECONFIG',
]);

/** Prefixes (upper case): every variable of a family that configures where code comes from. */
const PREFIXES = ['UV_', 'PIP_', 'PIPX_', 'COREPACK_', 'CONDA_', 'POETRY_', 'CARGO_', 'MAVEN_', 'GRADLE_', 'GIT_', 'SSH_', 'XDG_', 'DYLD_', 'NPM_CONFIG_', 'YARN_', 'PNPM_', 'BUN_CONFIG_', 'DENO_', 'CORECLR_', 'COR_PROFILER', 'COMPLUS_', 'DOTNET_STARTUP', 'GIT_CONFIG_', 'BASH_FUNC_', 'LD_', 'RUSTUP_', 'BUNDLE_'];

/** Does setting this variable make a runtime load or fetch code? */
export function loadsCode(name: string): boolean {
  // A name holding "=" carries its own value past this check (the spawn writes `NAME=VALUE`, so
  // `NODE_OPTIONS=--import=…` as a name sets NODE_OPTIONS): never a plain name. Nor is a NUL.
  if (!isPlainEnvName(name)) return true;
  const upper = name.toUpperCase();
  return NAMES.has(upper) || PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/**
 * True for a variable bash imports as a shell function (`BASH_FUNC_NAME%%=() { … }`): its value is
 * code every bash on the way runs in place of the command NAME. The registry refuses such a name.
 */
export function definesShellFunction(name: string): boolean {
  return name.toUpperCase().startsWith('BASH_FUNC_');
}

/** A name a process environment can hold as written: not empty, no "=" and no NUL. */
export function isPlainEnvName(name: string): boolean {
  return name.length > 0 && !name.includes('=') && !name.includes('\u0000');
}

/** The names among `env` that load or fetch code, sorted. */
export function codeLoadingNames(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(env ?? {})
    .filter(loadsCode)
    .sort();
}

/** The names the person did not allow (compared without case), sorted. */
export function notAllowed(names: readonly string[], allowed: readonly string[] | undefined): string[] {
  const yes = new Set((allowed ?? []).map((n) => n.toUpperCase()));
  return names.filter((name) => !yes.has(name.toUpperCase()));
}

/** The warning every door starts with for such variables: each named with its value. */
export function codeLoadingWarning(server: string, variables: ReadonlyArray<readonly [name: string, value: string]>): string {
  const shown = variables.map(([name, value]) => `${name}=${value}`).join(', ');
  return `warning: "${server}" sets ${shown}: ${variables.length === 1 ? 'this variable makes' : 'these variables make'} its runtime load or fetch code you have not seen.`;
}

/** The one sentence every door says for variables not allowed: each with its value, and the fix (name each). */
export function notAllowedMessage(server: string, unallowed: ReadonlyArray<readonly [name: string, value: string]>, nothing: string): string {
  const names = unallowed.map(([name]) => name);
  return `${codeLoadingWarning(server, unallowed)} ${nothing} To allow ${names.length === 1 ? 'it' : 'them'}, name each: --allow-env ${names.join(',')} (in the app: tick its box).`;
}

/**
 * Where a command line sets such a variable itself, in its arguments: `env NAME=…` (`-S`,
 * `--split-string=`), `docker run -e NAME=…` (`-eNAME=…`, `--env=NAME=…`), a shell's `NAME=… cmd`,
 * `export NAME=…`, cmd's `set NAME=…`, PowerShell's `$env:NAME=…`, a script's `process.env.NAME=`. Each as [name, the rest of that argument]; a name that
 * loads nothing (`LEVEL=2`, `--mode=fast`) is not listed.
 */
export function codeLoadingAssignments(args: readonly string[] | undefined, loads: (name: string) => boolean = loadsCode): Array<readonly [name: string, value: string]> {
  const found: Array<readonly [string, string]> = [];
  for (const arg of args ?? []) {
    for (const match of arg.matchAll(ASSIGNMENT)) {
      const name = match[1]!;
      if (loads(name)) found.push([name, arg.slice(match.index + match[0].length)] as const);
    }
  }
  return found;
}

/**
 * Every code-loading variable a stdio entry sets, with its value: in its `env`, then from its
 * arguments (codeLoadingAssignments) — what each door (gallery, bundles, imports, links) warns
 * about. `loads` is the one list unless a door is stricter (a link: link-env.ts).
 */
export function codeLoadingSettings(
  entry: { readonly env?: Readonly<Record<string, string>>; readonly args?: readonly string[] } | undefined,
  loads: (name: string) => boolean = loadsCode,
): Array<readonly [name: string, value: string]> {
  return [...Object.entries(entry?.env ?? {}).filter(([name]) => loads(name)), ...codeLoadingAssignments(entry?.args, loads)];
}

/**
 * `NAME=` at an argument's start, glued to a one-letter flag (`-eNAME=`, env's `-SNAME=`), or after
 * a space, quote, `;`, `(`, backquote, `:` (`$env:NAME=`), `env.` (`process.env.NAME=`) or `=`
 * (`--env=NAME=`, `--split-string=NAME=`). A shell or script can still build a name no pattern
 * sees: the command line is shown whole, and this catches the forms that read as settings.
 */
const ASSIGNMENT = /(?:^-[A-Za-z]|^|[\s;'"(`:=]|env\.)([A-Za-z_][A-Za-z0-9_%]*)=/g;
