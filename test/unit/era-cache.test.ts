import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EraCache } from '../../main/host/servers/era-cache';

const DISCOVER = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-era-cache-'));
  path = join(dir, 'era-cache.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('the era cache read back from disk', () => {
  it('keeps a verdict for the configuration that earned it', async () => {
    const cache = new EraCache(path);
    await cache.set('modern', 'h1', { era: 'modern', discover: DISCOVER });
    await cache.set('remote', 'h2', { era: 'legacy', sse: true });
    const again = new EraCache(path);
    expect(await again.get('modern', 'h1')).toEqual({ prior: { kind: 'modern', discover: DISCOVER }, legacySse: false });
    expect(await again.get('remote', 'h2')).toEqual({ prior: { kind: 'legacy' }, legacySse: true });
    expect(await again.get('modern', 'changed-config')).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"modern": {'],
    ['JSON of another shape', '[1, 2, 3]'],
    ['null', 'null'],
  ])('a file that is %s is a cache miss, and the next write replaces it', async (_label, text) => {
    writeFileSync(path, text);
    const cache = new EraCache(path);
    expect(await cache.get('modern', 'h1')).toBeUndefined();
    await cache.set('modern', 'h1', { era: 'legacy' });
    expect(Object.keys(onDisk())).toEqual(['modern']);
    expect(await new EraCache(path).get('modern', 'h1')).toEqual({ prior: { kind: 'legacy' }, legacySse: false });
  });

  it('ignores an entry of a foreign shape (never hands it to the SDK) and keeps the good ones', async () => {
    writeFileSync(
      path,
      JSON.stringify({
        good: { configHash: 'h', prior: { kind: 'legacy' }, at: 1 },
        // A modern verdict whose DiscoverResult is not one: adopted as is, connect would trust garbage.
        bogus: { configHash: 'h', prior: { kind: 'modern', discover: { supportedVersions: 'all of them' } }, at: 1 },
        odd: { configHash: 42, prior: { kind: 'legacy' } },
        strange: 'legacy',
      }),
    );
    const cache = new EraCache(path);
    expect(await cache.get('good', 'h')).toEqual({ prior: { kind: 'legacy' }, legacySse: false });
    expect(await cache.get('bogus', 'h')).toBeUndefined();
    expect(await cache.get('odd', '42')).toBeUndefined();
    expect(await cache.get('strange', 'h')).toBeUndefined();
    // The next write keeps only what was valid, plus the new verdict.
    await cache.set('bogus', 'h', { era: 'modern', discover: DISCOVER });
    expect(Object.keys(onDisk()).sort()).toEqual(['bogus', 'good']);
  });
});
