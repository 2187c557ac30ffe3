/**
 * The environment a harbor:// link may set (main/shell/link-env.ts, applied by parseDeepLink):
 * loader, runtime, package-manager, shell, git/ssh and TLS hooks are refused in any case, only
 * plain upper-case names pass, and values are one line of visible text. A server's own settings
 * still pass.
 */
import { describe, expect, it } from 'vitest';
import { parseDeepLink } from '../../main/shell/deep-link';
import { linkEnvNameProblem, linkEnvValueProblem } from '../../main/shell/link-env';

const link = (env: Record<string, string>) =>
  `harbor://add-server?config=${Buffer.from(JSON.stringify({ name: 'x', config: { command: 'npx', args: ['-y', 'some-server'], env } })).toString('base64url')}`;

function refusal(env: Record<string, string>): string {
  try {
    parseDeepLink(link(env));
  } catch (error) {
    expect(error).toMatchObject({ code: 'BAD_REQUEST' });
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('a harbor:// link cannot set a variable that hooks a runtime or tool', () => {
  it.each([
    // the hooks the review named, in every case
    'NPM_CONFIG_REGISTRY', 'npm_config_registry', 'Npm_Config_Script_Shell', 'NPM_CONFIG_NODE_OPTIONS',
    'PIP_INDEX_URL', 'pip_extra_index_url', 'UV_INDEX_URL', 'uv_default_index',
    'JAVA_TOOL_OPTIONS', 'java_tool_options',
    'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONWARNINGS', 'pythoninspect',
    'GIT_SSH_COMMAND', 'git_ssh_command', 'GIT_CONFIG_COUNT',
    'GCONV_PATH', 'DOTNET_STARTUP_HOOKS', 'HOME', 'home', 'NODE_EXTRA_CA_CERTS',
    // and the ones refused before
    'NODE_OPTIONS', 'NODE_PATH', 'ELECTRON_RUN_AS_NODE', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'PERL5OPT', 'RUBYOPT', 'BASH_ENV', 'ENV', 'PATH', 'Path', 'PATHEXT', 'COMSPEC',
    // the same families, further members
    'YARN_NPM_REGISTRY_SERVER', 'COREPACK_NPM_REGISTRY', 'CORECLR_PROFILER_PATH', 'COR_ENABLE_PROFILING', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'GLIBC_TUNABLES',
    'SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE', 'OPENSSL_CONF', 'HTTPS_PROXY', 'XDG_CONFIG_HOME', 'USERPROFILE', 'GOPROXY', 'CARGO_HOME', 'LUA_INIT', 'EDITOR', 'PROMPT_COMMAND',
  ])('refuses %s', (name) => {
    expect(linkEnvNameProblem(name)).toMatch(/changes which code runs, where packages come from or which certificates are trusted/);
    expect(refusal({ [name]: '/tmp/x' })).toMatch(/changes which code runs/);
  });

  it('takes only plain upper-case names', () => {
    for (const name of ['_JAVA_OPTIONS', 'api_key', 'MyToken', '1TOKEN', 'A-B', 'TOKEN\u200B']) {
      expect(linkEnvNameProblem(name), name).toMatch(/not a plain variable name|changes which code runs/);
      expect(() => parseDeepLink(link({ [name]: 'v' })), name).toThrow(/not accepted/);
    }
    expect(linkEnvNameProblem('TOKEN\u202E')).not.toMatch(/\u202E/);
  });

  it('takes values of one visible line only (shell metacharacters mean nothing: no shell runs them)', () => {
    expect(refusal({ API_URL: 'https://a.example\nX=1' })).toMatch(/one line of visible text/);
    expect(refusal({ API_URL: 'https://a.example/\u202Etxt' })).toMatch(/one line of visible text/);
    expect(linkEnvValueProblem('https://api.example.com/v1?a=1&b=$(x);`y`')).toBeUndefined();
  });

  it('still lets a link carry a server\'s own settings', () => {
    const env = { GITHUB_API_URL: 'https://api.github.com', SLACK_TEAM_ID: 'T123', GITHUB_TOOLSETS: 'repos,issues', MCP_LOG_LEVEL: 'info', PYPI_MIRROR_NOTE: 'no hook' };
    expect(parseDeepLink(link(env)).config).toMatchObject({ env });
  });
});
