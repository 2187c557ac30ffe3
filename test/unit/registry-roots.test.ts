/**
 * A server's "roots" in the registry: absolute after "~" expansion, file:// URIs of this machine,
 * no ".." (also percent-encoded), existing folders — each problem a registry problem naming the
 * entry and the fix; what is answered to roots/list is the normalised folder as a file:// URI.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { withServerAdded } from '../../main/host/registry/editor';
import { resolveRoots, rootPath, rootProblem, rootsProblems } from '../../main/host/registry/roots';
import { RegistryStore } from '../../main/host/registry/store';
import { RegistryState } from '../../main/host/services/registry-state';
import { parseRegistryFile } from '../../main/host/registry/schema';

const home = mkdtempSync(join(tmpdir(), 'harbor-home-'));
mkdirSync(join(home, 'projects', 'x'), { recursive: true });
writeFileSync(join(home, 'file.txt'), 'not a folder');
const context = { home };

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('rootPath: the shape of an entry', () => {
  it('takes absolute paths, file:// URIs and ~/ paths', () => {
    expect(rootPath('/srv/data/', context)).toEqual({ path: '/srv/data' });
    expect(rootPath('file:///srv/data', context)).toEqual({ path: '/srv/data' });
    expect(rootPath('file://localhost/srv/my%20data', context)).toEqual({ path: '/srv/my data' });
    expect(rootPath('~/projects/x', context)).toEqual({ path: join(home, 'projects/x') });
    expect(rootPath('~', context)).toEqual({ path: home });
  });

  it.each([
    ['relative/path', 'is not an absolute path'],
    ['./here', 'is not an absolute path'],
    ['/srv/../etc', 'goes up a folder with ".."'],
    ['file:///srv/%2e%2e/etc', 'goes up a folder with ".."'],
    ['~/../other', 'goes up a folder with ".."'],
    ['~root/x', 'only "~/…"'],
    ['file://server/share', 'names another machine'],
    ['file:///srv/x?y=1', 'query or fragment'],
    ['https://example.com/x', 'is not a folder'],
    ['/srv/\u0007bell', 'control characters'],
    ['  ', 'must not be empty'],
  ])('refuses %j', (entry, problem) => {
    const resolved = rootPath(entry, context);
    expect('problem' in resolved && resolved.problem).toContain(problem);
  });
});

describe('rootProblem: the folder must exist', () => {
  it('accepts an existing folder and names a missing one or a file', () => {
    expect(rootProblem('~/projects/x', context)).toBeUndefined();
    expect(rootProblem('~/projects/missing', context)).toBe(`the folder ${join(home, 'projects/missing')} does not exist: create it, or remove it from "roots"`);
    expect(rootProblem('~/file.txt', context)).toContain('is a file, not a folder');
  });
});

describe('resolveRoots: what roots/list answers', () => {
  it('file:// URIs with the folder name, duplicates and broken entries left out', () => {
    const x = join(home, 'projects/x');
    expect(resolveRoots(['~/projects/x', `file://${x}`, '~/missing', 'relative'], context)).toEqual([{ uri: pathToFileURL(x).href, name: 'x', path: x }]);
    expect(resolveRoots(undefined, context)).toEqual([]);
  });
});

describe('the registry and its editor', () => {
  it('keeps a file with a bad root usable, and lists each bad root as a problem of its server', () => {
    const roots = [home, 'relative', join(home, 'nope')];
    expect(parseRegistryFile({ mcpServers: { fs: { command: 'x', roots } } }).success).toBe(true);
    expect(rootsProblems(roots, context)).toEqual([
      'roots[1]: "relative" is not an absolute path: write the full path (e.g. "/home/me/project" or "~/project")',
      `roots[2]: the folder ${join(home, 'nope')} does not exist: create it, or remove it from "roots"`,
    ]);
  });

  it('the Host lists a vanished root among the registry problems, and the file stays in use', async () => {
    const path = join(home, 'harbor.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { fs: { command: 'x', roots: [join(home, 'projects/x'), join(home, 'gone')] } } }));
    const state = new RegistryState(new RegistryStore(path), path, false);
    await state.reload();
    expect(state.servers.has('fs')).toBe(true);
    expect(state.problems).toEqual([`mcpServers.fs: roots[1]: the folder ${join(home, 'gone')} does not exist: create it, or remove it from "roots"`]);
  });

  it('refuses a bad root typed into the editor, naming the entry and the fix', () => {
    const attempt = () => withServerAdded({ mcpServers: {} }, 'fs', { command: 'x', roots: [home, join(home, 'nope')] });
    expect(attempt).toThrow(HarborError);
    expect(attempt).toThrow(`mcpServers.fs.roots[1]: the folder ${join(home, 'nope')} does not exist: create it, or remove it from "roots"`);
    expect(withServerAdded({ mcpServers: {} }, 'fs', { command: 'x', roots: [home] }).mcpServers!.fs).toMatchObject({ roots: [home] });
  });

  it('takes the sampling, samplingModel, samplingPerMinute and logLevel fields', () => {
    const model = { provider: 'openai-compatible', model: 'm', baseURL: 'http://127.0.0.1:1/v1' };
    const ok = parseRegistryFile({ mcpServers: { s: { url: 'http://127.0.0.1:1/mcp', sampling: 'allow', samplingModel: [model], samplingPerMinute: 3, logLevel: 'info', roots: [home] } } });
    expect(ok.success).toBe(true);
    const bad = parseRegistryFile({ mcpServers: { s: { command: 'x', sampling: 'sometimes', logLevel: 'loud', samplingModel: [] } } });
    expect(new Set(bad.error!.issues.map((i) => i.path.join('.')))).toEqual(new Set(['mcpServers.s.samplingModel', 'mcpServers.s.sampling', 'mcpServers.s.logLevel']));
  });
});
