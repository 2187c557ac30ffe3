import { describe, expect, it } from 'vitest';
import { checkRegistryText } from '../../main/host/registry/editor';
import { sandboxForInstalledServer, sandboxInstalledServers, sandboxRules } from '../../main/host/registry/sandbox-config';
import { HARBOR_FIELD_NAMES } from '../../main/host/registry/schema';
import { missingDependencies, sandboxUnavailableError, unsupportedPlatform } from '../../main/host/sandbox/availability';
import { buildPolicy, type PolicyContext } from '../../main/host/sandbox/policy';
import { withSandboxChange } from '../../main/host/sandbox/rules-edit';
import { quote, shellCommand } from '../../main/host/sandbox/shell-command';
import { resolveLaunch } from '../../main/host/servers/launch';

const HOME = '/home/ann';
const context: PolicyContext = {
  home: HOME,
  dataDir: '/home/ann/.config/Harbor',
  configPath: '/home/ann/.config/Harbor/harbor.json',
  tempDir: '/tmp/harbor-sandbox-abc',
  ownFolders: [],
};

function problems(sandbox: unknown): string[] {
  return checkRegistryText(JSON.stringify({ mcpServers: { s: { command: 'npx', sandbox } } })).problems.map((p) => `${p.path}: ${p.message}`);
}

describe('the registry\'s "sandbox" field', () => {
  it('takes true, false, or rules of absolute or ~ paths and host names', () => {
    expect(problems(true)).toEqual([]);
    expect(problems(false)).toEqual([]);
    expect(problems({ allowWrite: ['~/notes', '/srv/data', '${harbor:data}/notes'], denyRead: ['~/work/secrets'], allowedDomains: ['registry.npmjs.org', '*.example.com', 'example.com:8443', '[::1]:3000'] })).toEqual([]);
  });

  it('refuses relative paths, URLs and other things that are not hosts, naming the fix', () => {
    expect(problems({ allowWrite: ['notes'] })).toEqual(['mcpServers.s.sandbox.allowWrite[0]: must be an absolute path or start with ~/ (a relative path would depend on where the server starts)']);
    expect(problems({ allowedDomains: ['https://api.example.com/v1'] })).toEqual(['mcpServers.s.sandbox.allowedDomains[0]: "https://api.example.com/v1" is a URL: write only the host, e.g. "api.example.com"']);
    expect(problems({ allowedDomains: ['exa mple.com'] })[0]).toContain('is not a host name');
    expect(problems('yes')[0]).toMatch(/^mcpServers\.s\.sandbox/);
  });

  it('is one of Harbor\'s own fields, and becomes the launch\'s rules with ${harbor:…} expanded', () => {
    expect(HARBOR_FIELD_NAMES.has('sandbox')).toBe(true);
    const vars = { node: '/usr/bin/node', resources: '/opt/harbor', data: '/data' };
    expect(resolveLaunch('s', { command: 'x', sandbox: { allowWrite: ['${harbor:data}/notes'] } }, vars)).toMatchObject({ sandbox: { allowWrite: ['/data/notes'] } });
    expect(resolveLaunch('s', { command: 'x', sandbox: true }, vars)).toMatchObject({ sandbox: {} });
    expect(resolveLaunch('s', { command: 'x', sandbox: false }, vars)).not.toHaveProperty('sandbox');
    expect(sandboxRules(undefined)).toBeUndefined();
  });

  it('an installed server gets true, or the registry its package runner downloads from', () => {
    expect(sandboxForInstalledServer('npx')).toEqual({ allowedDomains: ['registry.npmjs.org'] });
    expect(sandboxForInstalledServer('C:\\Program Files\\nodejs\\npx.cmd')).toEqual({ allowedDomains: ['registry.npmjs.org'] });
    expect(sandboxForInstalledServer('/home/ann/.local/bin/uvx')).toEqual({ allowedDomains: ['pypi.org', 'files.pythonhosted.org'] });
    expect(sandboxForInstalledServer('${harbor:node}')).toBe(true);
    expect(sandboxForInstalledServer('docker')).toBe(true);
  });

  it('"installs": {"sandbox": …} is the install setting, on unless turned off', () => {
    expect(sandboxInstalledServers(undefined)).toBe(true);
    expect(sandboxInstalledServers({ sandbox: false })).toBe(false);
    expect(checkRegistryText(JSON.stringify({ installs: { sandbox: 'no' } })).problems.map((p) => p.path)).toEqual(['installs.sandbox']);
  });
});

describe('what a sandboxed server may do', () => {
  it('writes only its own temporary folder and allowWrite; the runtime\'s shared folders are denied again', () => {
    const policy = buildPolicy({ allowWrite: ['~/notes'] }, context);
    expect(policy.allowWrite).toEqual(['/tmp/harbor-sandbox-abc', '/home/ann/notes']);
    expect(policy.denyWrite).toEqual(expect.arrayContaining(['/tmp/claude', '/home/ann/.npm/_logs', '/home/ann/.claude/debug']));
  });

  it("never reads Harbor's data, the registry, SSH/AWS/GnuPG keys or the keychain's files, nor the person's denyRead", () => {
    const policy = buildPolicy({ denyRead: ['~/work/secrets'] }, { ...context, xdgDataHome: '/tmp/xdg' });
    expect(policy.denyRead).toEqual(
      expect.arrayContaining([
        '/home/ann/.config/Harbor',
        '/home/ann/.config/Harbor/harbor.json',
        '/home/ann/.ssh',
        '/home/ann/.aws',
        '/home/ann/.gnupg',
        '/home/ann/.local/share/keyrings',
        '/tmp/xdg/keyrings',
        '/home/ann/Library/Keychains',
        '/home/ann/work/secrets',
      ]),
    );
    expect(policy.personHidden).toEqual(['/home/ann/work/secrets']);
    expect(policy.alwaysHidden).not.toContain('/home/ann/work/secrets');
    expect(policy.allowedDomains).toEqual([]);
  });

  it("reads back only its own folders inside Harbor's data folder, never the folder itself or anything outside it", () => {
    const data = context.dataDir;
    const policy = buildPolicy({}, { ...context, ownFolders: [`${data}/bundles/hello/1.0.0`, `${data}/notes`, data, '/usr/bin', 'relative/notes'] });
    expect(policy.allowRead).toEqual([`${data}/bundles/hello/1.0.0`, `${data}/notes`]);
  });

  it('the inner command is quoted word by word and runs with its own TMPDIR', () => {
    expect(shellCommand('node', ['server.js', "it's; rm -rf ~", '$HOME'], { TMPDIR: '/tmp/x y' })).toBe(`export TMPDIR='/tmp/x y'; exec 'node' 'server.js' 'it'\\''s; rm -rf ~' '$HOME'`);
    expect(quote('')).toBe("''");
  });
});

describe('one-click changes to the rules', () => {
  it('adds a folder (written ~/…) or a host once, or shows a hidden folder again', () => {
    expect(withSandboxChange('s', true, { kind: 'allowWrite', path: '/home/ann/out' }, HOME)).toEqual({ allowWrite: ['~/out'] });
    expect(withSandboxChange('s', { allowWrite: ['~/out'] }, { kind: 'allowWrite', path: '/home/ann/out' }, HOME)).toEqual({ allowWrite: ['~/out'] });
    expect(withSandboxChange('s', { allowedDomains: ['a.com'] }, { kind: 'allowDomain', domain: 'b.com' }, HOME)).toEqual({ allowedDomains: ['a.com', 'b.com'] });
    expect(withSandboxChange('s', { denyRead: ['~/x', '/y'] }, { kind: 'stopHiding', path: '/home/ann/x' }, HOME)).toEqual({ denyRead: ['/y'] });
    expect(withSandboxChange('s', { denyRead: ['/y'] }, { kind: 'stopHiding', path: '/y' }, HOME)).toEqual({});
  });

  it('refuses a change for a server that is not sandboxed', () => {
    expect(() => withSandboxChange('s', false, { kind: 'allowDomain', domain: 'a.com' }, HOME)).toThrow(/does not run in a sandbox/);
  });
});

describe('where the sandbox cannot run', () => {
  it('Windows gets none, and says the servers run unsandboxed', () => {
    expect(unsupportedPlatform('win32')).toMatchObject({ available: false, fix: 'servers run unsandboxed here' });
    expect(unsupportedPlatform('linux')).toBeUndefined();
    expect(unsupportedPlatform('darwin')).toBeUndefined();
  });

  it('missing tools are named with the command that installs them', () => {
    const linux = missingDependencies(['bubblewrap (bwrap) not installed'], 'linux');
    expect(linux).toMatchObject({ available: false, reason: expect.stringContaining('bubblewrap (bwrap) not installed') });
    expect(!linux.available && linux.fix).toContain('apt-get install bubblewrap socat ripgrep');
    const mac = missingDependencies(['ripgrep (rg) not found'], 'darwin');
    expect(!mac.available && mac.fix).toContain('brew install ripgrep');
  });

  it('the refusal names the server, the reason, the fix and the per-server opt-out', () => {
    const error = sandboxUnavailableError('files', { available: false, reason: 'no bubblewrap', fix: 'install it' });
    expect(error.code).toBe('SANDBOX_UNAVAILABLE');
    expect(error.message).toBe(
      'Server "files" runs in a sandbox, and the sandbox cannot run here: no bubblewrap. To fix it, install it. To run this server without the sandbox instead, turn its sandbox off (the server editor\'s Sandbox section, or "sandbox": false in the registry).',
    );
  });
});
