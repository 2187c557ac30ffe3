/**
 * `harbor gallery search|add` against a local MCP Registry on 127.0.0.1 (test/fixtures/registry)
 * serving real server.json documents: pagination, what each server needs, the exact command each
 * way of running builds (npx, uvx, docker, dnx, a remote URL, an MCPB download checked against its
 * fileSha256), secrets to the keychain, and an unreachable registry answered within seconds.
 * Needs the build; the installs that store a secret need a keychain (CI provides one).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KeychainSecretStore } from '../../main/host/secrets/keychain-store';
import { packBundle } from '../helpers/bundles';
import { runCli } from '../helpers/cli';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';
import { requireKeychainInCi } from '../helpers/keychain';
import { startRegistry, type LocalRegistry } from '../helpers/registry-server';
import { requireSandboxInCi } from '../helpers/sandbox';
import { filesUnder, workspace as makeWorkspace } from '../helpers/workspace';

const SERVICE = `harbor-test-gallery-${process.pid}-${randomBytes(4).toString('hex')}`;
const problem = await requireKeychainInCi();
// Each test runs the CLI several times; on a busy machine one run takes seconds.
vi.setConfig({ testTimeout: 120_000 });

/** The built CLI with this file's keychain service; `ms`: how long it took. */
async function harbor(args: string[]) {
  const started = Date.now();
  const run = await runCli(args, { env: { HARBOR_KEYCHAIN_SERVICE: SERVICE } });
  return Object.assign(run, { ms: Date.now() - started });
}

const roots: string[] = [];
function workspace(file: Record<string, unknown> = { mcpServers: {} }) {
  const ws = makeWorkspace(file, 'harbor-gallery-');
  roots.push(ws.root);
  return ws;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

let registry: LocalRegistry;
let remote: RunningHttpServer;
let bundle: string;
/** Installed servers get "sandbox" where this machine can run it (the setting is on by default). */
const sandboxed = (await requireSandboxInCi()) === undefined;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-gallery-bundles-'));
  roots.push(dir);
  bundle = await packBundle('hello', dir);
  remote = await startHttpFeatureServer();
  registry = await startRegistry({ bundles: [bundle], remote: remote.url });
}, 120_000);

afterAll(async () => {
  await registry?.stop();
  await remote?.kill();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('browsing the gallery', () => {
  it('pages through every latest server with the registry cursor', async () => {
    const ws = workspace();
    const seen: Array<{ name: string; version: string }> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const run = await harbor([...ws.flags, '--json', 'gallery', 'search', '--registry', registry.url, '--limit', '3', ...(cursor ? ['--cursor', cursor] : [])]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.json<{ name?: string; version?: string; nextCursor?: string }>();
      cursor = lines.find((l) => l.nextCursor)?.nextCursor;
      seen.push(...lines.filter((l) => l.name).map((l) => ({ name: l.name!, version: l.version! })));
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(11 - 1); // one of the eleven documents is an older version
    expect(new Set(seen.map((s) => s.name)).size).toBe(seen.length);
    expect(seen).toContainEqual({ name: 'io.github.modelcontextprotocol/filesystem', version: '1.0.2' });
    const requested = await registry.requests();
    expect(requested.filter((r) => r.startsWith('/v0.1/servers?')).every((r) => r.includes('version=latest') && r.includes('limit=3'))).toBe(true);
  });

  it('shows what a server is and what each way of running it needs', async () => {
    const ws = workspace();
    const run = await harbor([...ws.flags, 'gallery', 'search', 'filesystem', '--registry', registry.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('io.github.modelcontextprotocol/filesystem  1.0.2  Filesystem');
    expect(run.stdout).toContain('repository: https://github.com/modelcontextprotocol/servers');
    expect(run.stdout).toContain('[0] npm @modelcontextprotocol/server-filesystem 1.0.2');
    expect(run.stdout).toMatch(/--set target_dir=…\s+\(argument, required, default \/Users\/username\/Desktop\)\s+Path to access/);
    expect(run.stdout).toContain('[1] oci docker.io/mcp/filesystem:1.0.2');
    expect(run.stdout).toMatch(/--set source_path=…\s+\(variable, required\)\s+Source path on host/);
    const secret = await harbor([...ws.flags, '--json', 'gallery', 'search', 'github-mcp', '--registry', registry.url]);
    const [github] = secret.json<{ options: Array<{ kind: string; inputs: Array<{ key: string; secret: boolean }> }> }>();
    expect(github!.options.map((o) => o.kind)).toEqual(['package', 'remote']);
    expect(github!.options[0]!.inputs).toContainEqual(expect.objectContaining({ key: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true }));
    expect(github!.options[1]!.inputs).toContainEqual(expect.objectContaining({ key: 'token', secret: true }));
  });

  it('the gallery uses the registries in the "installs" settings', async () => {
    const ws = workspace({ mcpServers: {}, installs: { registries: [registry.url] } });
    const run = await harbor([...ws.flags, '--json', 'gallery', 'search', 'time']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()[0]).toMatchObject({ name: 'io.github.modelcontextprotocol/time' });
  });

  it('an unreachable registry is a clear message within seconds (exit 3), never a hang', async () => {
    const ws = workspace();
    const refused = await harbor([...ws.flags, 'gallery', 'search', 'x', '--registry', `http://127.0.0.1:${await closedPort()}`]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/Cannot reach the MCP Registry at http:\/\/127\.0\.0\.1:\d+: nothing is listening there/);
    // The fix names the Settings section that holds the registry's address, as the app labels it.
    expect(refused.stderr).toContain('Check the address (Settings → Gallery sources, or --registry)');
    // The registry's own limit is 5 s; the rest is the CLI starting, slower on a busy machine.
    expect(refused.ms).toBeLessThan(10_000);
    const stalled = await startRegistry({ stall: true });
    try {
      const hung = await harbor([...ws.flags, 'gallery', 'search', 'x', '--registry', stalled.url]);
      expect(hung.code).toBe(3);
      expect(hung.stderr).toMatch(/did not answer within 5 s/);
      expect(hung.ms).toBeLessThan(15_000);
    } finally {
      await stalled.stop();
    }
  }, 60_000);
});

describe('what an install from the gallery runs (dry runs: nothing written, no keychain needed)', () => {
  async function plan(...args: string[]) {
    const ws = workspace();
    const run = await harbor([...ws.flags, '--json', 'gallery', 'add', ...args, '--registry', registry.url, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(ws.registry().mcpServers).toEqual({});
    return run.json<{ plan: { server: string; target: string; config: Record<string, unknown>; secrets: unknown[]; envNames: string[]; headerNames: string[]; sandbox?: Record<string, unknown> } }>()[0]!.plan;
  }

  it('npm: npx -y pkg@version, arguments and defaults; --version picks another', async () => {
    const latest = await plan('io.github.modelcontextprotocol/filesystem', '--set', 'target_dir=/srv/a', '--set', 'target_dir=/srv/b');
    expect(latest.target).toBe('npx -y @modelcontextprotocol/server-filesystem@1.0.2 /srv/a /srv/b');
    expect(latest.config).toMatchObject({ env: { LOG_LEVEL: 'info' }, installed: { from: 'gallery', name: 'io.github.modelcontextprotocol/filesystem', version: '1.0.2', kind: 'npm' } });
    // npx downloads its package: the sandbox lets it reach the npm registry and nothing else.
    expect(latest.config.sandbox).toEqual(sandboxed ? { allowedDomains: ['registry.npmjs.org'] } : undefined);
    expect(latest.server).toBe('filesystem');
    const older = await plan('io.github.modelcontextprotocol/filesystem', '--version', '0.6.2', '--set', 'target_dir=/srv/a');
    expect(older.target).toBe('npx -y @modelcontextprotocol/server-filesystem@0.6.2 /srv/a');
  });

  it('a secret input becomes a keychain reference in env', async () => {
    const brave = await plan('io.github.brave/brave-search-mcp-server', '--set', 'BRAVE_API_KEY=bsa-123');
    expect(brave.target).toBe('npx -y @brave/brave-search-mcp-server@2.0.1');
    expect(brave.config.env).toEqual({ BRAVE_API_KEY: '${secret:brave-search-mcp-server-brave_api_key}' });
    expect(brave.secrets).toEqual([{ key: 'BRAVE_API_KEY', secret: 'brave-search-mcp-server-brave_api_key' }]);
    expect(JSON.stringify(brave)).not.toContain('bsa-123');
  });

  it('OCI: docker run with the mount variables, env passed by name', async () => {
    const oci = await plan('io.github.modelcontextprotocol/filesystem', '--option', '1', '--set', 'source_path=/home/me/src');
    expect(oci.target).toBe('docker run -i --rm --mount type=bind,src=/home/me/src,dst=/project -e LOG_LEVEL docker.io/mcp/filesystem:1.0.2 /project');
    // The container is its isolation: the sandbox would only cut docker off from its daemon.
    expect(oci.config).not.toHaveProperty('sandbox');
    expect(oci.sandbox).toMatchObject({ requested: false, enforced: false, note: expect.stringMatching(/runs in a container/) });
  });

  it('PyPI through uvx, NuGet through dnx', async () => {
    expect((await plan('io.github.modelcontextprotocol/time', '--set', 'local-timezone=Europe/Paris')).target).toBe('uvx mcp-server-time==0.6.2 --local-timezone Europe/Paris');
    expect((await plan('io.github.joelverhagen/knapcode-samplemcpserver', '--set', 'WEATHER_CHOICES=sunny,rainy')).target).toBe('dnx Knapcode.SampleMcpServer@0.5.0 --yes -- mcp start');
  });

  it('a remote: the URL, with a secret header as a keychain reference', async () => {
    const github = await plan('io.github.github/github-mcp-server', '--option', '1', '--set', 'token=ghp_abc');
    expect(github.target).toBe('https://api.githubcopilot.com/mcp/');
    expect(github.config).toMatchObject({ url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${secret:github-mcp-server-token}' } });
    expect(github.config).not.toHaveProperty('sandbox');
  });

  it('refuses what it cannot install, naming the problem (exit 2)', async () => {
    const ws = workspace();
    const missing = await harbor([...ws.flags, 'gallery', 'add', 'io.github.brave/brave-search-mcp-server', '--registry', registry.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/needs "BRAVE_API_KEY": give it a value \(--set BRAVE_API_KEY=VALUE\)/);
    const choice = await harbor([...ws.flags, 'gallery', 'add', 'io.github.example/weather-mcp', '--set', 'WEATHER_API_KEY=k', '--set', 'WEATHER_UNITS=kelvin', '--registry', registry.url]);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/must be one of celsius, fahrenheit/);
    const unknown = await harbor([...ws.flags, 'gallery', 'add', 'io.example/nothing', '--registry', registry.url]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/"io\.example\/nothing" is not in the MCP Registry/);
    const tampered = await harbor([...ws.flags, 'gallery', 'add', 'io.github.harbor-desktop/tampered-bundle', '--registry', registry.url]);
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toMatch(/does not match the fileSha256 the registry lists/);
    expect(ws.registry().mcpServers).toEqual({});
    expect(existsSync(join(ws.data, 'bundles'))).toBe(false);
  });
});

describe.skipIf(problem !== undefined)(`installing from the gallery${problem ? ` — skipped: ${problem}` : ''}`, () => {
  const admin = new KeychainSecretStore({ service: SERVICE });
  afterAll(async () => {
    for (const name of await admin.list().catch(() => [])) await admin.delete(name).catch(() => false);
    await admin.dispose();
  });

  it('a remote server: installed, its secret header only in the keychain, its tools listed', async () => {
    const ws = workspace();
    const key = `notes-key-${randomBytes(6).toString('hex')}`;
    const add = await harbor([...ws.flags, 'gallery', 'add', 'io.github.harbor-desktop/local-notes', '--set', `X-Api-Key=${key}`, '--registry', registry.url, '--yes']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain(`URL        ${remote.url}`);
    expect(ws.registry().mcpServers['local-notes']).toMatchObject({ url: remote.url, headers: { 'X-Api-Key': '${secret:local-notes-x-api-key}' } });
    const tools = await harbor([...ws.flags, '--json', 'tools', 'local-notes', '--yes']);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.json().length).toBeGreaterThan(0);
    expect(await admin.get('local-notes-x-api-key')).toBe(key);
    expect([ws.config, ...filesUnder(ws.data)].filter((f) => readFileSync(f).includes(key))).toEqual([]);
  }, 60_000);

  it('an MCPB package: downloaded, checked against its fileSha256, installed as a bundle, and its tools work', async () => {
    const ws = workspace();
    const key = `bundle-key-${randomBytes(6).toString('hex')}`;
    const add = await harbor([...ws.flags, 'gallery', 'add', 'io.github.harbor-desktop/hello-bundle', '--set', `api_key=${key}`, '--registry', registry.url, '--yes']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/MCPB package checked against its SHA-256/);
    expect(ws.registry().mcpServers['hello-bundle']).toMatchObject({ installed: { from: 'bundle', version: '1.0.0' } });
    expect(ws.registry().mcpServers['hello-bundle']!.sandbox).toBe(sandboxed ? true : undefined);
    const call = await harbor([...ws.flags, 'call', 'hello-bundle', 'key_fingerprint', '--yes']);
    expect(call.stdout.trim()).toBe(createHash('sha256').update(key).digest('hex'));
  }, 60_000);
});
