/**
 * The open item of the outsider's round on #27.1: a bundle's `installed.dir` written as
 * `bundles/a/1.0.0/../../b/1.0.0` (or through a link inside `bundles/a/`) made the sandbox give
 * server "a" the folder of bundle "b". The registry now refuses a recorded folder that, with `..`
 * and links resolved, is not the `bundles/NAME/VERSION/` it names: that server shows as
 * misconfigured (naming the field and the fix), the others keep working; the sandbox judges the
 * same way on its own.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverEntryProblems } from '../../main/host/registry/entry-problems';
import type { ServerConfig } from '../../main/host/registry/schema';
import { bundleFolderParts, ownDataFolders } from '../../main/host/sandbox/own-folders';
import { FEATURE_SERVER, NODE, createTestHost, type TestHost } from '../helpers/host';

let root: string;
let data: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'harbor-installed-dir-'));
  data = join(root, 'data');
  mkdirSync(join(data, 'bundles/a/1.0.0'), { recursive: true });
  mkdirSync(join(data, 'bundles/b/1.0.0'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const bundleEntry = (dir: string): ServerConfig => ({ command: NODE, args: [FEATURE_SERVER], installed: { from: 'bundle', bundle: 'a', version: '1.0.0', dir } }) as ServerConfig;

describe("installed.dir that leaves its bundle's folder (#27.1, the outsider's open item)", () => {
  it('a ".." path into another bundle is a problem of that entry, naming the field and the fix', () => {
    const problems = serverEntryProblems(bundleEntry(`${data}/bundles/a/1.0.0/../../b/1.0.0`));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^installed\.dir: /);
    expect(problems[0]).toContain('bundles/b/1.0.0');
    expect(problems[0]).toMatch(/install the bundle again/i);
  });

  it('other spellings: "." segments, a trailing "..", doubled separators, a link inside bundles/a/', () => {
    symlinkSync(join(data, 'bundles/b/1.0.0'), join(data, 'bundles/a/2.0.0'));
    for (const dir of [`${data}/bundles/a/./../b/1.0.0`, `${data}/bundles/a/1.0.0/..`, `${data}/bundles//b/1.0.0/../../a/1.0.0/../../b/1.0.0`, join(data, 'bundles/a/2.0.0')]) {
      expect(serverEntryProblems(bundleEntry(dir)), dir).toEqual([expect.stringMatching(/^installed\.dir: /)]);
    }
  });

  it("the bundle's own folder, as the installer writes it, is no problem (absent or present)", () => {
    expect(serverEntryProblems(bundleEntry(join(data, 'bundles/a/1.0.0')))).toEqual([]);
    expect(serverEntryProblems(bundleEntry(join(data, 'bundles/a/9.9.9')))).toEqual([]);
  });

  it('the sandbox gives a ".." record nothing, even one that lands on a real bundle folder', async () => {
    expect(bundleFolderParts(data, `${data}/bundles/a/1.0.0/../../b/1.0.0`)).toBeUndefined();
    expect(await ownDataFolders(data, { bundleDir: `${data}/bundles/a/1.0.0/../../b/1.0.0` })).toEqual([]);
    expect(await ownDataFolders(data, { bundleDir: join(data, 'bundles/a/1.0.0') })).toEqual([join(data, 'bundles/a/1.0.0')]);
  });
});

describe('in a running Host', () => {
  let test: TestHost | undefined;
  afterEach(async () => {
    await test?.dispose();
    test = undefined;
  });

  it('the entry is misconfigured, the other server still starts, and the registry lists the problem', async () => {
    test = await createTestHost((dir) => ({
      a: bundleEntry(`${dir}/bundles/a/1.0.0/../../b/1.0.0`),
      plain: { command: NODE, args: [FEATURE_SERVER] },
    }));
    await test.host.servers.startAll();
    expect(test.host.servers.get('plain').state.kind).toBe('ready');
    const a = test.host.servers.get('a');
    expect(a.state).toMatchObject({ kind: 'error', code: 'CONFIG_INVALID', message: expect.stringContaining('installed.dir') });
    expect(test.host.appInfo().configProblems.join('\n')).toMatch(/mcpServers\.a: installed\.dir: /);
  });
});
