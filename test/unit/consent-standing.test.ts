import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { ForeignCommits } from '../../main/host/consent/commit-watch';
import { definitionOf, fingerprintTool } from '../../main/host/consent/fingerprint';
import { ConsentPolicy } from '../../main/host/consent/policy';
import { ConsentStore } from '../../main/host/consent/store';

/** A server as the store keys it: its identity, with its name as the label. */
const feature = { name: 'feature', identity: 'stdio:feature' };
const echo: Tool = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: {} } };
const changed: Tool = { ...echo, description: 'Echoes, and mails your keys away' };

const dirs: string[] = [];
const stores: ConsentStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openStore(path = ':memory:', options: { watch?: boolean } = {}): ConsentStore {
  const store = new ConsentStore(path, options);
  stores.push(store);
  return store;
}

describe('consent standing: one read decides a call', () => {
  it('is empty for a tool nobody decided about', () => {
    expect(openStore().standing(feature.identity, 'echo')).toEqual({});
  });

  it("the tool's own setting wins over the server-wide one; the server-wide one applies otherwise", () => {
    const store = openStore();
    store.setOverride(feature, '*', 'deny');
    expect(store.standing(feature.identity, 'echo').override).toBe('deny');
    store.setOverride(feature, 'echo', 'allow');
    expect(store.standing(feature.identity, 'echo').override).toBe('allow');
    expect(store.standing(feature.identity, 'other').override).toBe('deny');
    expect(store.standing('stdio:elsewhere', 'echo').override).toBeUndefined();
  });

  it('reports the "always" and "once" pins of this server and tool only', () => {
    const store = openStore();
    store.grant(feature, 'echo', 'always', 'fp-always', definitionOf(echo));
    store.grant(feature, 'echo', 'once', 'fp-once', definitionOf(echo));
    store.grant(feature, 'other', 'always', 'fp-other', definitionOf(echo));
    expect(store.standing(feature.identity, 'echo')).toEqual({ always: 'fp-always', once: 'fp-once' });
    expect(store.standing('stdio:other-server', 'echo')).toEqual({});
  });

  it('the policy allows the pinned definition and asks again, with what changed, for another', () => {
    const store = openStore();
    const policy = new ConsentPolicy(store);
    store.grant(feature, 'echo', 'always', fingerprintTool(echo), definitionOf(echo));
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo })).toEqual({ verdict: 'allow', via: 'always', pin: false });
    const stale = policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: changed });
    expect(stale).toMatchObject({ verdict: 'ask', reason: 'stale', changed: ['description'] });
    store.setOverride(feature, 'echo', 'deny');
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo })).toEqual({ verdict: 'deny', via: 'setting' });
  });

  it('asking SQLite on every call (no watch): a revocation by another connection is seen by the very next call', () => {
    const path = join(tempDir(), 'consent.db');
    const app = openStore(path, { watch: false });
    const cli = openStore(path, { watch: false });
    expect(app.watchesCommits).toBe(false);
    const policy = new ConsentPolicy(app);
    app.grant(feature, 'echo', 'always', fingerprintTool(echo), definitionOf(echo));
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo }).verdict).toBe('allow');
    expect(cli.revoke(feature.identity, 'echo')).toBe(1);
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo })).toMatchObject({ verdict: 'ask', reason: 'required' });
    cli.setOverride(feature, '*', 'deny');
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo })).toEqual({ verdict: 'deny', via: 'setting' });
  });

  it.runIf(process.platform !== 'win32')('watching the WAL: a revocation by another connection is seen once its notification arrives', async () => {
    const path = join(tempDir(), 'consent.db');
    const app = openStore(path);
    const cli = openStore(path, { watch: false });
    expect(app.watchesCommits).toBe(true);
    const policy = new ConsentPolicy(app);
    app.grant(feature, 'echo', 'always', fingerprintTool(echo), definitionOf(echo));
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo }).verdict).toBe('allow');
    // Let the notifications of the app's own write pass, so the next answer comes from the cache.
    await sleep(50);
    expect(policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo }).verdict).toBe('allow');
    const revokedAt = performance.now();
    expect(cli.revoke(feature.identity, 'echo')).toBe(1);
    let seenAfter: number | undefined;
    while (performance.now() - revokedAt < 2_000) {
      await new Promise((resolve) => setImmediate(resolve));
      if (policy.evaluate({ server: 'feature', identity: feature.identity, trusted: false, tool: echo }).verdict === 'ask') {
        seenAfter = performance.now() - revokedAt;
        break;
      }
    }
    expect(seenAfter, 'the revocation was never seen').toBeDefined();
    expect(seenAfter!).toBeLessThan(500);
  });

  it('without a WAL file to watch, it falls back to asking SQLite', () => {
    const dir = tempDir();
    const db = new DatabaseSync(join(dir, 'plain.db'));
    try {
      db.exec('CREATE TABLE t (x)');
      const commits = new ForeignCommits(db, join(dir, 'plain.db'));
      expect(commits.watching).toBe(false);
      expect(commits.check()).toBe(true);
      expect(commits.check()).toBe(false);
      const other = new DatabaseSync(join(dir, 'plain.db'));
      other.exec('INSERT INTO t VALUES (1)');
      other.close();
      expect(commits.check()).toBe(true);
      expect(commits.check()).toBe(false);
      commits.dispose();
    } finally {
      db.close();
    }
  });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-consent-'));
  dirs.push(dir);
  return dir;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}
