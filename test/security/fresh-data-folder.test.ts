/**
 * Attack: a registry file that arrives before Harbor's first run (copied in, written by an
 * installer or another program) had every remote server in it approved, because the first run
 * took any data folder for an upgrade. A fresh data folder is not an upgrade: its remote servers
 * ask before their first request. Only a consent.db written by an
 * older Harbor (schema 0) carries approvals forward (test/integration/consent-migration.test.ts);
 * the same for the keychain secrets the planted servers name: a fresh folder binds none of them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Host } from '../../main/host/host';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { errorOf } from '../helpers/harbor-error';
import { FEATURE_SERVER, NODE, openHostOn } from '../helpers/host';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';

let remote: RunningHttpServer;
beforeAll(async () => {
  remote = await startHttpFeatureServer();
});
afterAll(async () => {
  await remote.kill();
});

let dir: string | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a fresh data folder is not an upgrade', () => {
  it('a remote server already in the registry asks before its first request; nothing was approved', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-fresh-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { planted: { url: remote.url, headers: { Authorization: 'Bearer ${secret:tok}' } } } }));
    host = await openHostOn(dir, { secrets: new MemorySecretStore({ tok: 'value-tok-1234' }) });
    expect(host.consent.decisions().launches).toEqual([]);
    const refused = await errorOf(host.servers.connect('planted'));
    expect(refused.code).toBe('CONSENT_REQUIRED');
  });

  it.each([
    ['a remote server', (url: string) => ({ url, headers: { Authorization: 'Bearer ${secret:tok}' } })],
    ['a stdio server', () => ({ command: NODE, args: [FEATURE_SERVER], env: { TOKEN: '${secret:tok}' } })],
  ])('%s already in the registry is not given the keychain secrets it names: approving its launch still asks for each', async (_what, planted) => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-fresh-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { planted: planted(remote.url) } }));
    host = await openHostOn(dir, { secrets: new MemorySecretStore({ tok: 'value-tok-1234' }) });
    host.servers.approveLaunch('planted');
    const refused = await errorOf(host.servers.connect('planted'));
    expect(refused.code).toBe('CONSENT_REQUIRED');
    expect(refused.message).toContain('harbor secret grant tok planted');
  });
});
