/** A bundle's user_config answered and its launch built: defaults, checks, secrets as references, runtimes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleLaunch } from '../../main/host/bundles/launch-config';
import type { BundleManifest } from '../../main/host/bundles/manifest';
import { parseManifest } from '../../main/host/bundles/manifest';
import { answerUserConfig } from '../../main/host/bundles/user-config';
import { compareVersions } from '../../main/host/installs/versions';
import { freeSecretName } from '../../main/host/installs/secret-names';
import { suggestServerName } from '../../main/host/installs/server-name';
import { gallerySettings, withGallerySettings } from '../../main/host/installs/settings';

const folder = mkdtempSync(join(tmpdir(), 'harbor-user-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function manifest(overrides: Record<string, unknown> = {}): Promise<BundleManifest> {
  return parseManifest(
    JSON.stringify({
      manifest_version: '0.3',
      name: 'demo',
      version: '1.2.3',
      description: 'demo',
      author: { name: 'Tests' },
      server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js', '--root', '${user_config.root}', '${user_config.extra}'], env: { TOKEN: '${user_config.token}', LIMIT: '${user_config.limit}', DEBUG: '${user_config.debug}' } } },
      user_config: {
        token: { type: 'string', title: 'Token', description: 'A token', sensitive: true, required: true },
        root: { type: 'directory', title: 'Folder', description: 'A folder', default: '${HOME}' },
        limit: { type: 'number', title: 'Limit', description: 'A limit', min: 1, max: 10, default: 5 },
        debug: { type: 'boolean', title: 'Debug', description: 'Debug output' },
        extra: { type: 'string', title: 'Extra', description: 'An optional argument' },
      },
      ...overrides,
    }),
  );
}

const name = (key: string) => `demo-${key}`;

describe('user_config', () => {
  it('applies defaults, checks types and ranges, and turns sensitive values into keychain references', async () => {
    const m = await manifest();
    const answered = answerUserConfig(m, { token: 'tok-1', limit: '7', debug: 'yes', root: folder }, {}, name);
    expect(answered.values).toEqual({ token: '${secret:demo-token}', root: folder, limit: 7, debug: true });
    expect(answered.secrets).toEqual([{ name: 'demo-token', value: 'tok-1', key: 'token' }]);
    expect(answered.kept).toEqual({ token: { secret: 'demo-token' }, root: folder, limit: 7, debug: true });
    expect(answerUserConfig(m, { token: 't' }, {}, name).values.root).toBe(homedir());
  });

  it('names what is missing or wrong', async () => {
    const m = await manifest();
    expect(() => answerUserConfig(m, {}, {}, name)).toThrow(/needs a setting that has no value: "token" \(Token\)/);
    expect(() => answerUserConfig(m, { token: 't', limit: '11' }, {}, name)).toThrow(/"limit" \(Limit\) must be at most 10/);
    expect(() => answerUserConfig(m, { token: 't', limit: 'many' }, {}, name)).toThrow(/must be a number/);
    expect(() => answerUserConfig(m, { token: 't', debug: 'maybe' }, {}, name)).toThrow(/must be true or false/);
    expect(() => answerUserConfig(m, { token: 't', root: join(folder, 'nope') }, {}, name)).toThrow(/names a folder that does not exist/);
    expect(() => answerUserConfig(m, { token: 't', extra: '${secret:other}' }, {}, name)).toThrow(/may not contain "\$\{"/);
    expect(() => answerUserConfig(m, { token: 't', tokn: 'x' }, {}, name)).toThrow(/no setting "tokn"\. Its settings: token, root, limit, debug, extra/);
  });

  it('an update keeps what the person chose before, the secret by its name', async () => {
    const m = await manifest();
    const answered = answerUserConfig(m, {}, { token: { secret: 'demo-token' }, limit: 3 }, name);
    expect(answered.values).toMatchObject({ token: '${secret:demo-token}', limit: 3 });
    expect(answered.secrets).toEqual([]);
  });
});

describe('the launch', () => {
  it('runs node bundles on Harbor’s Node, resolves the folder and drops empty settings', async () => {
    const m = await manifest();
    const { values } = answerUserConfig(m, { token: 't', root: folder }, {}, name);
    const launch = await bundleLaunch(m, '/data/bundles/demo/1.2.3', values, undefined);
    expect(launch).toEqual({ command: '${harbor:node}', args: ['/data/bundles/demo/1.2.3/server/index.js', '--root', folder], env: { TOKEN: '${secret:demo-token}', LIMIT: '5' } });
  });

  it('refuses a sensitive value on the command line and a manifest naming Harbor’s own variables', async () => {
    const inArgs = await manifest({ server: { type: 'node', entry_point: 'x.js', mcp_config: { command: 'node', args: ['--token=${user_config.token}'] } } });
    await expect(bundleLaunch(inArgs, '/b', answerUserConfig(inArgs, { token: 't' }, {}, name).values, undefined)).rejects.toThrow(/passes a sensitive setting on its command line/);
    const sneaky = await manifest({ server: { type: 'node', entry_point: 'x.js', mcp_config: { command: 'node', args: ['x.js'], env: { K: '${secret:github-token}' } } } });
    await expect(bundleLaunch(sneaky, '/b', { token: 't' }, undefined)).rejects.toThrow(/refers to Harbor's own/);
  });

  it('runs Python bundles through uv, and says so clearly when uv is missing', async () => {
    const python = await manifest({ server: { type: 'python', entry_point: 'server/main.py', mcp_config: { command: 'python3', args: ['${__dirname}/server/main.py'], env: { PYTHONPATH: '${__dirname}/lib' } } }, user_config: {} });
    await expect(bundleLaunch(python, '/b', {}, undefined)).rejects.toThrow(/runs Python servers through uv, which is not installed here/);
    expect(await bundleLaunch(python, '/b', {}, '/usr/bin/uv')).toEqual({ command: 'uv', args: ['run', '--no-project', 'python', '/b/server/main.py'], env: { PYTHONPATH: '/b/lib' } });
  });

  it('uses this platform’s override and refuses a bundle made for other platforms', async () => {
    const override = await manifest({
      user_config: {},
      server: { type: 'binary', entry_point: 'bin/srv', mcp_config: { command: '${__dirname}/bin/srv', args: [], platform_overrides: { [process.platform]: { command: '${__dirname}/bin/srv-here' } } } },
    });
    expect((await bundleLaunch(override, '/b', {}, undefined)).command).toBe('/b/bin/srv-here');
    const elsewhere = await manifest({ user_config: {}, compatibility: { platforms: [process.platform === 'win32' ? 'darwin' : 'win32'] } });
    await expect(bundleLaunch(elsewhere, '/b', {}, undefined)).rejects.toThrow(/is made for/);
  });
});

describe('install helpers', () => {
  it('compares versions as people read them', () => {
    expect(compareVersions('1.10.0', '1.9.2')).toBeGreaterThan(0);
    expect(compareVersions('2.0.0-beta', '2.0.0')).toBeLessThan(0);
    expect(compareVersions('1.0.0', '1.0')).toBe(0);
  });

  it('suggests registry names and free secret names', () => {
    expect(suggestServerName('io.github.modelcontextprotocol/filesystem')).toBe('filesystem');
    expect(suggestServerName('@acme/weather tool!')).toBe('weather tool');
    expect(suggestServerName('---')).toBe('server');
    expect(freeSecretName('hello', 'API_KEY', new Set(['hello-api_key', 'hello-api_key-2']))).toBe('hello-api_key-3');
  });

  it('reads and writes the gallery registries, keeping the sandbox setting beside them', () => {
    expect(gallerySettings(undefined)).toEqual({ registries: ['https://registry.modelcontextprotocol.io'] });
    const file = withGallerySettings({ mcpServers: {}, installs: { sandbox: false } }, { registries: ['http://127.0.0.1:9000/', ' http://127.0.0.1:9000 '] });
    expect(file.installs).toEqual({ sandbox: false, registries: ['http://127.0.0.1:9000'] });
    expect(() => withGallerySettings({}, { registries: ['ftp://x'] })).toThrow(/must be an http\(s\) URL/);
    expect(() => withGallerySettings({}, { registries: [] })).toThrow(/at least one registry/);
  });
});

describe('the manifest', () => {
  it('is checked against its declared version', async () => {
    await expect(parseManifest('{"manifest_version":"0.3"}')).rejects.toThrow(/does not match manifest version 0\.3/);
    await expect(parseManifest('{"name":"x"}')).rejects.toThrow(/has no "manifest_version"/);
    await expect(parseManifest('not json')).rejects.toThrow(/is not valid JSON/);
    await expect(parseManifest('{"manifest_version":"7.0"}')).rejects.toThrow(/manifest_version "7\.0", which this Harbor cannot read \(it reads 0\.1, 0\.2, 0\.3, 0\.4\)/);
  });
});
