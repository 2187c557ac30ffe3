/**
 * consent.db written by the previous schema (decisions keyed by server name) opened by this
 * Harbor, with a real Host over a real registry: on the first run its decisions move to the
 * identities the servers have now (rows of names no longer configured, and launch approvals of
 * another command line, are dropped), the secrets servers reference become theirs and configured
 * remote servers count as approved — once. A server added afterwards gets none of it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type Host } from '../../main/host/host';
import { ServerConfig } from '../../main/host/registry/schema';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { launchHash, resolveLaunch } from '../../main/host/servers/launch';
import { FEATURE_SERVER, FIXTURES, NODE, REPO, openHostOn } from '../helpers/host';
import { errorOf } from '../helpers/harbor-error';

/** The schema every Harbor before identity-keyed consent created (user_version 0). */
const SCHEMA_0 = `
  PRAGMA journal_mode = WAL;
  CREATE TABLE IF NOT EXISTS tool_approvals (
    server TEXT NOT NULL, tool TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('always','once')),
    fingerprint TEXT NOT NULL, definition TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (server, tool, kind));
  CREATE TABLE IF NOT EXISTS launch_approvals (
    server TEXT PRIMARY KEY, launch_hash TEXT NOT NULL, command_line TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS tool_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, server TEXT NOT NULL, tool TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT, changed TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS policy_overrides (
    server TEXT NOT NULL, tool TEXT NOT NULL, mode TEXT NOT NULL CHECK (mode IN ('ask','allow','deny')),
    PRIMARY KEY (server, tool));
`;

const ECHO_ENV = join(FIXTURES, 'echo-env.mjs');
// Definitions as a person once approved them (the fixture has changed since: they are stale now).
const echoDefinition = JSON.stringify({ name: 'echo', description: 'Echo the text back.', inputSchema: { type: 'object', properties: {} } });
const addDefinition = JSON.stringify({ name: 'add', description: 'Adds.', inputSchema: { type: 'object', properties: {} } });

let dir: string | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function openHost(root: string): Promise<Host> {
  return openHostOn(root, { secrets: new MemorySecretStore({ tok: 'value-tok-1234' }) });
}

function writeRegistry(root: string, servers: Record<string, unknown>): void {
  writeFileSync(join(root, 'harbor.json'), JSON.stringify({ mcpServers: servers }));
}

describe('consent.db from the previous schema', () => {
  it('carries decisions by name over to the identity each server has now, once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-consent-migration-'));
    const servers = {
      feature: { command: NODE, args: [FEATURE_SERVER] },
      tokened: { command: NODE, args: [ECHO_ENV], env: { TOKEN: '${secret:tok}' } },
      remote: { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'blue' } },
    };
    writeRegistry(dir, servers);
    const featureHash = launchHash(resolveLaunch('feature', ServerConfig.parse(servers.feature), { node: NODE, resources: join(REPO, 'resources'), data: dir }));
    const old = new DatabaseSync(join(dir, 'consent.db'));
    old.exec(SCHEMA_0);
    old.exec(`
      INSERT INTO tool_approvals VALUES ('feature', 'echo', 'always', 'fp-echo', '${echoDefinition}', 1000);
      INSERT INTO tool_approvals VALUES ('feature', 'add', 'once', 'fp-add', '${addDefinition}', 1000);
      INSERT INTO tool_approvals VALUES ('gone', 'echo', 'always', 'fp-gone', '${echoDefinition}', 1000);
      INSERT INTO launch_approvals VALUES ('feature', '${featureHash}', '${NODE} ${FEATURE_SERVER}', 1000);
      INSERT INTO launch_approvals VALUES ('tokened', 'a-hash-of-another-command-line', 'node elsewhere.mjs', 1000);
      INSERT INTO tool_changes (server, tool, before, after, changed, at) VALUES ('feature', 'echo', '${echoDefinition}', NULL, '["description"]', 1500);
      INSERT INTO policy_overrides VALUES ('feature', '*', 'allow');
      INSERT INTO policy_overrides VALUES ('gone', '*', 'deny');
    `);
    old.close();

    host = await openHost(dir);
    const decisions = host.consent.decisions();
    expect(decisions.approvals).toEqual([
      { server: 'feature', tool: 'add', kind: 'once', fingerprint: 'fp-add', createdAt: 1000 },
      { server: 'feature', tool: 'echo', kind: 'always', fingerprint: 'fp-echo', createdAt: 1000 },
    ]);
    expect(decisions.launches).toEqual([
      { server: 'feature', commandLine: `${NODE} ${FEATURE_SERVER}`, createdAt: 1000 },
      { server: 'remote', commandLine: 'http://127.0.0.1:9/mcp with headers x-team', createdAt: expect.any(Number) },
    ]);
    expect(decisions.changes).toEqual([{ server: 'feature', tool: 'echo', changed: ['description'], at: 1500 }]);
    expect(decisions.secrets).toEqual([{ secret: 'tok', server: 'tokened', origin: 'migrated', createdAt: expect.any(Number) }]);
    expect(host.consent.policies()).toEqual([{ server: 'feature', tool: '*', mode: 'allow' }]);

    // What was decided works as before: the launch is approved, and the allow setting lets a tool
    // with no approval of its own run (a non-interactive gate would refuse otherwise); the carried
    // approval of an older definition of echo is stale, as it was before the upgrade.
    expect((await host.calls.callTool('feature', 'slow', { steps: 1, delayMs: 0 })).isError).not.toBe(true);
    expect((await errorOf(host.calls.callTool('feature', 'echo', { text: 'x' }))).code).toBe('CONSENT_STALE');
    // A launch approval of another command line was never valid for this one: asked again.
    const tokened = await errorOf(host.servers.connect('tokened'));
    expect(tokened.code).toBe('CONSENT_REQUIRED');
    expect(tokened.message).toContain('Launching "tokened"');
    await host.dispose();
    host = undefined;

    const db = new DatabaseSync(join(dir, 'consent.db'));
    try {
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 2 });
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'legacy_%'").all()).toEqual([]);
    } finally {
      db.close();
    }

    // Later runs adopt nothing: servers added now are neither given secrets nor approved.
    writeRegistry(dir, { ...servers, late: { command: NODE, args: [ECHO_ENV, '--late'], env: { TOKEN: '${secret:tok}' } }, remote2: { url: 'http://127.0.0.1:9/other' } });
    host = await openHost(dir);
    expect(host.consent.decisions().secrets.map((s) => s.server)).toEqual(['tokened']);
    expect(host.consent.decisions().launches.map((l) => l.server)).toEqual(['feature', 'remote']);
    const remote2 = await errorOf(host.servers.connect('remote2'));
    expect(remote2.code).toBe('CONSENT_REQUIRED');
    expect(remote2.message).toContain('Connecting to "remote2" sends requests to http://127.0.0.1:9/other');
  });

  it('refuses a file written by a newer schema when consent is needed, naming the fix (the Host itself starts)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-consent-migration-'));
    writeRegistry(dir, {});
    const newer = new DatabaseSync(join(dir, 'consent.db'));
    newer.exec('PRAGMA user_version = 99');
    newer.close();
    host = await openHost(dir);
    const error = await errorOf((async () => host!.consent.decisions())());
    expect(error.code).toBe('DATA_CORRUPT');
    expect(error.message).toMatch(/written by a newer Harbor \(schema 99; this one knows 2\)/);
  });
});
