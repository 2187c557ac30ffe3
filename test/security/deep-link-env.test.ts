/**
 * Finding 2 (#27) through a `harbor://add-server` link, the open item of the outsider's round: a
 * link setting a code-loading variable was refused by the link's own list (link-env.ts), with a
 * message that did not start with "warning", and names on Harbor's one code-loading list that the
 * link's list lacked (CC, MAKEFLAGS, DOCKER_HOST, KUBECONFIG, …) reached the consent dialog as a
 * plain `NAME=value`. A link goes through the one list (registry/code-loading-env.ts): every such
 * variable — in `env`, or set from `args` (`env NAME=…`, `docker -e NAME=…`, `sh -c "NAME=… …"`)
 * — is named with its value on a line starting "warning", and nothing is asked or added. A link
 * never installs one (there is no box to tick on a link: the person adds such a server in Harbor).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest } from '../../preload/contract';
import { codeLoadingAssignments, loadsCode } from '../../main/host/registry/code-loading-env';
import { AddServerConsent } from '../../main/shell/add-server-consent';
import { parseDeepLink } from '../../main/shell/deep-link';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { createTestHost, FEATURE_SERVER, NODE, type TestHost } from '../helpers/host';
import { linkRefusal as refusal } from '../helpers/deep-link';

const IMPORT = '--import=data:text/javascript,process.stdout.write("owned")';
const b64 = (name: string, config: unknown) => `harbor://add-server?config=${Buffer.from(JSON.stringify({ name, config })).toString('base64url')}`;
const uri = (name: string, config: unknown) => `harbor://add-server?config=${encodeURIComponent(JSON.stringify({ name, config }))}`;

describe('a link that sets a code-loading variable', () => {
  it('NODE_OPTIONS=--import=data:… is named with its value on a line starting "warning"', () => {
    const message = refusal(b64('x', { command: 'npx', args: ['-y', 'some-server'], env: { NODE_OPTIONS: IMPORT } }));
    expect(message).toMatch(/^warning: /);
    expect(message).toContain(`NODE_OPTIONS=${IMPORT}`);
    expect(message).toMatch(/nothing was added/);
  });

  it('every name on the one code-loading list is refused so, the ones the link\'s own list lacked too', () => {
    const names = ['CC', 'CXX', 'MAKEFLAGS', 'LDFLAGS', 'DOCKER_HOST', 'DOCKER_CONFIG', 'DOCKER_CONTEXT', 'CONTAINER_HOST', 'KUBECONFIG', 'AWS_CONFIG_FILE', 'ERL_AFLAGS', 'ELIXIR_ERL_OPTIONS', 'MANPAGER', 'NUGET_PLUGIN_PATHS', 'PHP_INI_SCAN_DIR', 'RESTORE_CONFIG_FILE', 'NPM_CONFIG_REGISTRY', 'LD_PRELOAD', 'PYTHONPATH'];
    for (const name of names) {
      expect(loadsCode(name), name).toBe(true);
      const message = refusal(b64('x', { command: 'docker', args: ['run', '-i', 'img'], env: { [name]: 'tcp://evil.example:2375' } }));
      expect(message, name).toMatch(/^warning: /);
      expect(message, name).toContain(`${name}=tcp://evil.example:2375`);
    }
  });

  it('other spellings: lower or mixed case (Windows reads names without case), URI-encoded or \\u-escaped JSON', () => {
    for (const name of ['node_options', 'Node_Options', 'npm_config_registry', 'Ld_Preload']) {
      expect(refusal(b64('x', { command: 'npx', env: { [name]: IMPORT } })), name).toMatch(/^warning: /);
    }
    expect(refusal(uri('x', { command: 'npx', env: { NODE_OPTIONS: IMPORT } }))).toMatch(/^warning: .*NODE_OPTIONS=/);
    const escaped = `harbor://add-server?config=${encodeURIComponent('{"name":"x","config":{"command":"npx","env":{"NODE\\u005fOPTIONS":"--require /tmp/x.js"}}}')}`;
    expect(refusal(escaped)).toMatch(/^warning: .*NODE_OPTIONS=--require \/tmp\/x\.js/);
  });

  it('set from the arguments instead: env NAME=…, docker -e NAME=…, a shell command line', () => {
    for (const [command, args] of [
      ['env', [`NODE_OPTIONS=${IMPORT}`, 'npx', '-y', 'some-server']],
      ['/usr/bin/env', ['-i', `NODE_OPTIONS=${IMPORT}`, 'node', 'x.js']],
      ['docker', ['run', '-i', '-e', `NODE_OPTIONS=${IMPORT}`, 'img']],
      ['docker', ['run', '-i', `--env=NODE_OPTIONS=${IMPORT}`, 'img']],
      ['docker', ['run', '-i', `-eNODE_OPTIONS=${IMPORT}`, 'img']],
      ['sh', ['-c', `NODE_OPTIONS='${IMPORT}' npx -y some-server`]],
      ['bash', ['-c', `export LD_PRELOAD=/tmp/x.so; npx -y some-server`]],
      ['cmd', ['/c', `set NODE_OPTIONS=${IMPORT}&& npx -y some-server`]],
      ['powershell', ['-Command', `$env:NODE_OPTIONS='${IMPORT}'; npx -y some-server`]],
      // glued to a flag or after "=": env's -S / --split-string, a property set in a script
      ['env', [`--split-string=NODE_OPTIONS=${IMPORT} npx -y some-server`]],
      ['env', [`-SNODE_OPTIONS=${IMPORT} npx -y some-server`]],
      ['node', ['-e', `process.env.NODE_OPTIONS='${IMPORT}'; require('child_process').spawn('npx', ['-y', 'x'], { stdio: 'inherit' })`]],
    ] as const) {
      const message = refusal(b64('x', { command, args }));
      expect(message, `${command} ${args.join(' ')}`).toMatch(/^warning: .*(NODE_OPTIONS|LD_PRELOAD)=/);
    }
  });

  it("a server's own settings still pass, in env and in arguments", () => {
    const env = { GITHUB_API_URL: 'https://api.github.com', SLACK_TEAM_ID: 'T123', MCP_LOG_LEVEL: 'info' };
    expect(parseDeepLink(b64('x', { command: 'npx', args: ['-y', 'some-server', '--mode=fast', 'LEVEL=2'], env })).config).toMatchObject({ env });
    expect(parseDeepLink(b64('x', { command: 'docker', args: ['run', '-i', '-e', 'GITHUB_TOKEN', 'img'] })).config).toBeDefined();
  });
});

describe('in the app: the link handler over a real Host', () => {
  const hosts: TestHost[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.dispose();
  });

  it('tells the person the warning, asks nothing, and leaves harbor.json as it was', async () => {
    const test = await createTestHost({ existing: { command: NODE, args: [FEATURE_SERVER] } }, { approveLaunches: false });
    hosts.push(test);
    const { host } = test;
    const requests: ConsentRequest[] = [];
    disposeAfterTest(host.events.on((event, payload) => void (event === 'consent.request' && requests.push(payload as ConsentRequest))));
    const notices: Array<{ title: string; message: string }> = [];
    const added: string[] = [];
    const consent = disposeAfterTest(
      new AddServerConsent({
        ask: (request, signal) => host.consent.ask(request, signal),
        serverExists: (name) => host.servers.list().some((s) => s.name === name),
        addServer: async (name, config) => {
          added.push(name);
          return host.registry.add(name, config);
        },
        approveLaunch: () => undefined,
        notify: (title, message) => notices.push({ title, message }),
        refusalQuietMs: 0,
      }),
    );
    const before = readFileSync(join(test.dir, 'harbor.json'), 'utf8');
    for (const config of [
      { command: NODE, args: [FEATURE_SERVER], env: { NODE_OPTIONS: IMPORT } },
      { command: NODE, args: [FEATURE_SERVER], env: { DOCKER_HOST: 'tcp://evil.example:2375' } },
      { command: 'env', args: [`NODE_OPTIONS=${IMPORT}`, NODE, FEATURE_SERVER] },
    ]) {
      expect(await consent.handle(b64('feature', config))).toBe('refused');
    }
    expect(requests).toEqual([]);
    expect(added).toEqual([]);
    expect(notices).toHaveLength(3);
    for (const notice of notices) expect(notice.message).toMatch(/^warning: "feature" sets (NODE_OPTIONS|DOCKER_HOST)=/);
    expect(readFileSync(join(test.dir, 'harbor.json'), 'utf8')).toBe(before);
  });
});

describe('what a command line sets, read by the one list (codeLoadingAssignments)', () => {
  it('a Java property or a URL query that only looks like a name is not a variable', () => {
    expect(codeLoadingAssignments(['-Duser.home=/srv/x', '-Djava.home=/opt/jdk', 'https://api.example.com/?path=/x&home=1', '--mode=fast', 'LEVEL=2'])).toEqual([]);
    expect(codeLoadingAssignments(['-e', 'NODE_OPTIONS=--require=/x.cjs']).map(([name]) => name)).toEqual(['NODE_OPTIONS']);
  });
});
