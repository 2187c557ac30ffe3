/**
 * What of Harbor's data folder is a sandboxed server's own (main/host/sandbox/own-folders.ts):
 * decided from Harbor's records, resolved on a real folder with real links.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleFolderParts, ownDataFolders } from '../../main/host/sandbox/own-folders';
import { sandboxOwnership } from '../../main/host/services/sandbox-ownership';
import { defaultRegistry } from '../../main/host/services/host-options';
import type { ServerConfig } from '../../main/host/registry/schema';

let root: string;
let data: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'harbor-own-folders-'));
  data = join(root, 'data');
  mkdirSync(join(data, 'bundles/hello/1.0.0'), { recursive: true });
  mkdirSync(join(data, 'notes'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a sandboxed server's own folders inside the data folder", () => {
  it('an installed bundle owns its unpacked folder, the example server its notes', async () => {
    expect(await ownDataFolders(data, { bundleDir: join(data, 'bundles/hello/1.0.0') })).toEqual([join(data, 'bundles/hello/1.0.0')]);
    expect(await ownDataFolders(data, { exampleServer: true })).toEqual([join(data, 'notes')]);
    expect(await ownDataFolders(data, {})).toEqual([]);
  });

  it('a recorded folder that is not exactly bundles/NAME/VERSION owns nothing', () => {
    for (const dir of [data, join(data, 'bundles'), join(data, 'bundles/hello'), join(data, 'bundles/hello/1.0.0/server'), join(data, 'bundles/../tasks.db/x'), join(data, 'bundles/hello/../../logs'), join(data, 'bundles/.staging-1/x'), join(data, 'bundles/hello/..'), join(root, 'elsewhere/bundles/a/b'), 'bundles/hello/1.0.0']) {
      expect(bundleFolderParts(data, dir), dir).toBeUndefined();
    }
    // A ".." that lands on a real bundle folder is not that folder's record (test/security/installed-dir.test.ts).
    expect(bundleFolderParts(data, `${data}/bundles/x/../hello/1.0.0`)).toBeUndefined();
    expect(bundleFolderParts(data, join(data, 'bundles/hello/1.0.0'))).toEqual(['bundles', 'hello', '1.0.0']);
  });

  it('a folder that is a link, or lies under one, owns nothing; an absent one neither', async () => {
    rmSync(join(data, 'notes'), { recursive: true });
    symlinkSync(data, join(data, 'notes'));
    expect(await ownDataFolders(data, { exampleServer: true })).toEqual([]);
    mkdirSync(join(root, 'real-bundle/1.0.0'), { recursive: true });
    symlinkSync(join(root, 'real-bundle'), join(data, 'bundles/linked'));
    expect(await ownDataFolders(data, { bundleDir: join(data, 'bundles/linked/1.0.0') })).toEqual([]);
    expect(await ownDataFolders(data, { bundleDir: join(data, 'bundles/gone/1.0.0') })).toEqual([]);
  });

  it('a data folder reached through a link still has its own folders, named under it', async () => {
    symlinkSync(data, join(root, 'data-link'));
    const linked = join(root, 'data-link');
    expect(await ownDataFolders(linked, { bundleDir: join(linked, 'bundles/hello/1.0.0'), exampleServer: true })).toEqual([join(linked, 'bundles/hello/1.0.0'), join(linked, 'notes')]);
  });
});

describe("Harbor's records of what a server owns", () => {
  it("come from the registry entry's installed bundle and the example server's launch, never other fields", () => {
    const entries: Record<string, ServerConfig> = {
      hello: { command: 'node', args: ['x'], installed: { from: 'bundle', bundle: 'hello', version: '1.0.0', dir: '/d/bundles/hello/1.0.0' } } as ServerConfig,
      gallery: { command: 'npx', installed: { from: 'gallery', registry: 'r', name: 'n', version: '1', kind: 'npm' } } as ServerConfig,
      notes: defaultRegistry().mcpServers!.notes!,
      namesNotes: { command: 'node', args: ['x'], env: { HARBOR_NOTES_DIR: '/d/notes' } },
    };
    const ownership = sandboxOwnership((name) => entries[name]);
    expect(ownership('hello')).toEqual({ bundleDir: '/d/bundles/hello/1.0.0', exampleServer: false });
    expect(ownership('gallery')).toEqual({ exampleServer: false });
    expect(ownership('notes')).toEqual({ exampleServer: true });
    expect(ownership('namesNotes')).toEqual({ exampleServer: false });
    expect(ownership('absent')).toEqual({ exampleServer: false });
  });
});
