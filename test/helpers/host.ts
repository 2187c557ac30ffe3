import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Host, type HostOptions, type ToolCallOptions } from '../../main/host/host';
import type { ServerConfig } from '../../main/host/registry/schema';
import { referencedSecretNames } from '../../main/host/secrets/references';

export const REPO = resolve(import.meta.dirname, '../..');
export const FIXTURES = join(REPO, 'test/fixtures/servers');
export const FEATURE_SERVER = join(FIXTURES, 'modern/feature-server.mjs');
export const EVERYTHING_SERVER = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const NODE = process.execPath;

export interface TestHost {
  readonly host: Host;
  readonly dir: string;
  /** host.calls.callTool with the person's approval given up front (like --yes): for tests not about consent. */
  call(server: string, tool: string, args?: Record<string, unknown>, options?: ToolCallOptions): ReturnType<Host['calls']['callTool']>;
  dispose(): Promise<void>;
}

type TestServers = Record<string, ServerConfig | Record<string, unknown>>;

/**
 * A real Host over a temp registry file and data dir; dispose() stops its servers and removes the dir.
 * `servers` may be a function of the data dir (entries that name files in it), called before the Host starts.
 */
/**
 * A Host on a folder that already holds its harbor.json, opened as the CLI opens one (no login
 * shell, the test's Node for `${harbor:node}`), with nothing approved for it: for tests about what
 * a data folder, its registry and its approvals lead to.
 */
export function openHostOn(dir: string, options: Partial<HostOptions> = {}): Promise<Host> {
  return Host.create({
    configPath: join(dir, 'harbor.json'),
    dataDir: dir,
    appName: 'Harbor',
    appVersion: '0.0.0-test',
    mode: 'cli',
    launchVariables: { node: NODE, resources: join(REPO, 'resources') },
    useLoginShellPath: false,
    ...options,
  });
}

export async function createTestHost(servers: TestServers | ((dataDir: string) => TestServers), options: Partial<HostOptions> = {}): Promise<TestHost> {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-test-'));
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: typeof servers === 'function' ? servers(dir) : servers }, null, 2));
  const host = await Host.create({
    configPath,
    dataDir: dir,
    appName: 'Harbor',
    appVersion: '0.0.0-test',
    mode: 'cli',
    launchVariables: { node: NODE, resources: join(REPO, 'resources') },
    useLoginShellPath: false,
    probeTimeoutMs: 3_000,
    // Like --yes: these tests are about connections; test/integration/consent-*.test.ts turns it off.
    approveLaunches: true,
    ...options,
  });
  if (options.approveLaunches !== false) grantReferencedSecrets(host);
  return {
    host,
    dir,
    call: (server, tool, args, opts = {}) => host.calls.callTool(server, tool, args, { ...opts, consent: { approveOnce: true } }),
    async dispose() {
      await host.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The person's `harbor secret grant` for every keychain secret the registry's servers name: a
 * fresh data folder binds none of them (#27.16), and tests not about consent start from servers
 * the person has set up.
 */
export function grantReferencedSecrets(host: Host): void {
  for (const name of host.servers.names()) {
    const config = host.registry.requireValid().servers.get(name);
    if (config) for (const secret of referencedSecretNames(config)) host.secrets.grant(secret, name);
  }
}

/** The tests' one condition wait (./wait-for.ts), here too because most Host tests import from here. */
export { waitFor } from './wait-for';
