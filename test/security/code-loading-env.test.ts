/**
 * Finding 2, attacked again: the one list of environment variables that make a runtime load or
 * fetch code. A name that smuggles its value (`NODE_OPTIONS=--import=…` as the *name*, which the
 * spawn turns into `NODE_OPTIONS=--import=…=`) and the families a gallery entry can use to point a
 * runner at another index, interpreter or config are caught; the registry refuses such a name.
 */
import { describe, expect, it } from 'vitest';
import { codeLoadingNames, loadsCode } from '../../main/host/registry/code-loading-env';
import { StdioServerConfig } from '../../main/host/registry/schema';

describe('variables that load code', () => {
  it('a name that carries "=" (its own value) or a NUL is caught, whatever follows', () => {
    expect(loadsCode('NODE_OPTIONS=--import=data:text/javascript,/*x*///')).toBe(true);
    expect(loadsCode('LD_PRELOAD=/tmp/x.so:')).toBe(true);
    expect(loadsCode('HARMLESS=1')).toBe(true);
    expect(loadsCode('A\u0000B')).toBe(true);
    expect(codeLoadingNames({ 'NODE_OPTIONS=--require=/x': '', LOG_LEVEL: 'debug' })).toEqual(['NODE_OPTIONS=--require=/x']);
  });

  it('the registry refuses an environment name that is empty or holds "=" or NUL', () => {
    for (const name of ['NODE_OPTIONS=--import=x', '', 'A\u0000B']) {
      const parsed = StdioServerConfig.safeParse({ command: 'node', env: { [name]: 'v' } });
      expect(parsed.success, JSON.stringify(name)).toBe(false);
    }
    expect(StdioServerConfig.safeParse({ command: 'node', env: { LOG_LEVEL: 'debug', PYTHONUNBUFFERED: '1' } }).success).toBe(true);
  });

  it('families that point a runner at another index, interpreter, config or shell command are caught', () => {
    for (const name of [
      'UV_PYTHON_DOWNLOADS_JSON_URL',
      'UV_DEFAULT_INDEX',
      'PIP_CERT',
      'PYTHONWARNINGS',
      'BROWSER',
      'GCONV_PATH',
      'GLIBC_TUNABLES',
      'OPENSSL_CONF',
      'GIT_ASKPASS',
      'GIT_PROXY_COMMAND',
      'SSH_ASKPASS',
      'HOME',
      'XDG_CONFIG_HOME',
      'APPDATA',
      'https_proxy',
      'NODE_EXTRA_CA_CERTS',
      'PIPX_DEFAULT_PYTHON',
      'COREPACK_NPM_REGISTRY',
    ]) {
      expect(loadsCode(name), name).toBe(true);
    }
    // What MCP configs set every day stays a plain value.
    for (const name of ['LOG_LEVEL', 'PYTHONUNBUFFERED', 'DEBUG', 'API_URL', 'NODE_ENV', 'TZ']) expect(loadsCode(name), name).toBe(false);
  });

  it("the outsider's round: a second variable that runs or fetches code as NODE_OPTIONS or NPM_CONFIG_REGISTRY would", () => {
    for (const name of [
      // a shell function: bash runs it in place of the command it names
      'BASH_FUNC_node%%',
      'BASH_FUNC_bwrap%%',
      // Bun's NODE_OPTIONS; podman's DOCKER_HOST and its registries; docker's other daemon
      'BUN_OPTIONS',
      'CONTAINER_HOST',
      'CONTAINERS_REGISTRIES_CONF',
      'DOCKER_CONTEXT',
      'DOCKER_CERT_PATH',
      // Go fetches and builds code (`go run pkg@latest`)
      'GOPROXY',
      'GOFLAGS',
      'GOSUMDB',
      'GONOSUMDB',
      'GOTOOLCHAIN',
      // the compilers a native package's install runs (node-gyp, pip building an sdist)
      'CC',
      'CXX',
      'LDSHARED',
      'MAKEFLAGS',
      'MAKEFILES',
      'RUSTC_WRAPPER',
      'RUSTFLAGS',
      // Java launchers, Ruby's Gemfile at start, PHP's ini, Lua's init code, Erlang's -eval
      'JAVA_OPTS',
      'JAVA_HOME',
      'RUBYGEMS_GEMDEPS',
      'PHPRC',
      'PHP_INI_SCAN_DIR',
      'LUA_INIT',
      'ERL_AFLAGS',
      'ELIXIR_ERL_OPTIONS',
      // the dynamic linker's whole family, the shell other programs start, Windows' command processor
      'LD_DEBUG_OUTPUT',
      'SHELL',
      'COMSPEC',
      'PATHEXT',
      // TLS checks off, and credential helpers that run a command
      'PYTHONHTTPSVERIFY',
      'AWS_CONFIG_FILE',
      'KUBECONFIG',
    ]) {
      expect(loadsCode(name), name).toBe(true);
      expect(loadsCode(name.toLowerCase()), name.toLowerCase()).toBe(true);
    }
    for (const name of ['GOOGLE_API_KEY', 'CCACHE_DISABLE', 'GO_ENV', 'JAVA_VERSION_NOTE', 'SHELLCHECK_OPTS', 'LUA_VERSION_NOTE']) expect(loadsCode(name), name).toBe(false);
  });
});
