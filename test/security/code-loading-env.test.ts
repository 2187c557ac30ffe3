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
});
