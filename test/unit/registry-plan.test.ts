import { describe, expect, it } from 'vitest';
import { planImport, sameServer } from '../../main/host/import/merge-plan';
import type { RegistryFile, ServerConfig } from '../../main/host/registry/schema';

const github: ServerConfig = { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: 'x' } };
const githubOther: ServerConfig = { command: 'npx', args: ['-y', 'server-github@2'] };
const fs: ServerConfig = { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] };
const remote: ServerConfig = { url: 'https://example.com/mcp' };

function registry(servers: Record<string, ServerConfig>, extra: Record<string, unknown> = {}): RegistryFile {
  return { ...extra, mcpServers: servers };
}

describe('planImport', () => {
  it('adds new servers, keeping existing ones and unknown top-level fields', () => {
    const current = registry({ remote }, { theme: 'dark' });
    const plan = planImport(current, [{ name: 'github', config: github }, { name: 'fs', config: fs }]);
    expect(plan).toMatchObject({ added: ['github', 'fs'], identical: [], clashes: [] });
    expect(plan.next).toEqual({ theme: 'dark', mcpServers: { remote, github, fs } });
    expect(current.mcpServers).toEqual({ remote }); // the input is not mutated
  });

  it('imports into a registry without mcpServers', () => {
    expect(planImport({}, [{ name: 'fs', config: fs }]).next).toEqual({ mcpServers: { fs } });
  });

  it('skips identical servers and reports them; next is the same object when nothing changes', () => {
    const current = registry({ github });
    const plan = planImport(current, [{ name: 'github', config: { ...github } }]);
    expect(plan).toMatchObject({ added: [], identical: ['github'], clashes: [] });
    expect(plan.next).toBe(current);
  });

  it('treats Harbor-only switches, key order, empty lists and an implied type as the same server', () => {
    expect(sameServer({ ...github, enabled: false, trusted: true, timeoutMs: 5 }, github)).toBe(true);
    // Every Harbor field counts, the ones added later included: a person who turned a tool off
    // re-imports the same Claude config as "identical", not as a clash.
    expect(sameServer({ ...github, disabledTools: ['delete_repo'], probeTimeoutMs: 10_000 }, github)).toBe(true);
    expect(sameServer({ command: 'a', env: { X: '1', Y: '2' } }, { command: 'a', env: { Y: '2', X: '1' } })).toBe(true);
    expect(sameServer({ command: 'a', args: [], env: {} }, { command: 'a' })).toBe(true);
    expect(sameServer({ type: 'stdio', command: 'a' }, { command: 'a' })).toBe(true);
    expect(sameServer({ type: 'sse', url: 'https://e.com' }, { url: 'https://e.com', transport: 'sse' })).toBe(true);
    expect(sameServer({ type: 'http', url: 'https://e.com' }, { url: 'https://e.com' })).toBe(true);
  });

  it('sees a different argument order, env value, URL or transport as a different server', () => {
    expect(sameServer({ command: 'a', args: ['1', '2'] }, { command: 'a', args: ['2', '1'] })).toBe(false);
    expect(sameServer({ command: 'a', env: { X: '1' } }, { command: 'a', env: { X: '2' } })).toBe(false);
    expect(sameServer({ url: 'https://e.com/a' }, { url: 'https://e.com/b' })).toBe(false);
    expect(sameServer({ url: 'https://e.com' }, { url: 'https://e.com', transport: 'sse' })).toBe(false);
    expect(sameServer({ command: 'a', unknownField: 1 }, { command: 'a' })).toBe(false);
  });

  it('never overwrites: a different server under a taken name is a clash and is not written', () => {
    const current = registry({ github });
    const plan = planImport(current, [
      { name: 'github', config: githubOther },
      { name: 'fs', config: fs },
    ]);
    expect(plan.added).toEqual(['fs']);
    expect(plan.clashes).toEqual([{ name: 'github', existing: github, incoming: githubOther, suggestedName: 'github-2' }]);
    expect(plan.next.mcpServers?.github).toEqual(github);
  });

  it('with rename, adds a clashing server under the next free suffix', () => {
    const current = registry({ github, 'github-2': remote });
    const plan = planImport(current, [{ name: 'github', config: githubOther }], { rename: true });
    expect(plan.added).toEqual(['github-3']);
    expect(plan.clashes).toEqual([{ name: 'github', existing: github, incoming: githubOther, suggestedName: 'github-3', renamedTo: 'github-3' }]);
    expect(plan.next.mcpServers).toEqual({ github, 'github-2': remote, 'github-3': githubOther });
  });

  it('the person decides each clash: skip one, rename another to a name of their own', () => {
    const current = registry({ github, fs: remote });
    const plan = planImport(
      current,
      [
        { name: 'github', config: githubOther },
        { name: 'fs', config: fs },
        { name: 'new', config: remote },
      ],
      { choices: { github: { action: 'skip' }, fs: { action: 'rename', name: 'files' } } },
    );
    expect(plan.added).toEqual(['new', 'files']);
    expect(plan.clashes).toEqual([
      { name: 'github', existing: github, incoming: githubOther, suggestedName: 'github-2', skipped: true },
      { name: 'fs', existing: remote, incoming: fs, suggestedName: 'fs-2', renamedTo: 'files' },
    ]);
    expect(plan.next.mcpServers).toEqual({ github, fs: remote, new: remote, files: fs });
  });

  it('a rename to a taken or unusable name leaves that clash undecided, saying why; a choice without a name takes the suggestion', () => {
    const imported = [{ name: 'github', config: githubOther }, { name: 'fs', config: fs }];
    const taken = planImport(registry({ github, fs: remote }), imported, { choices: { github: { action: 'rename', name: 'fs' }, fs: { action: 'rename', name: ' fs' } } });
    expect(taken.added).toEqual([]);
    expect(taken.clashes.map((c) => [c.name, c.renamedTo, c.problem])).toEqual([
      ['github', undefined, '"fs" is already taken: choose another name.'],
      ['fs', undefined, expect.stringContaining('starts or ends with a space')],
    ]);
    const suggested = planImport(registry({ github }), [imported[0]!], { choices: { github: { action: 'rename' } } });
    expect(suggested.added).toEqual(['github-2']);
    // A generated name never lands on one the person typed for another clash.
    const around = planImport(registry({ github, fs: remote }), imported, { choices: { github: { action: 'rename' }, fs: { action: 'rename', name: 'github-2' } } });
    expect(around.added).toEqual(['github-3', 'github-2']);
  });

  it('a rename never takes a name that another incoming server brings', () => {
    const plan = planImport(
      registry({ github }),
      [
        { name: 'github', config: githubOther },
        { name: 'github-2', config: fs },
      ],
      { rename: true },
    );
    expect(plan.next.mcpServers).toEqual({ github, 'github-2': fs, 'github-3': githubOther });
    expect(plan.added).toEqual(['github-2', 'github-3']);
  });

  it('importing the same file again after a renaming import changes nothing', () => {
    const first = planImport(registry({ github }), [{ name: 'github', config: githubOther }], { rename: true });
    const second = planImport(first.next, [{ name: 'github', config: githubOther }], { rename: true });
    expect(second).toMatchObject({ added: [], identical: ['github-2'], clashes: [] });
    expect(second.next).toBe(first.next);
    // Without --rename too: the server is already there, so it is not a clash.
    expect(planImport(first.next, [{ name: 'github', config: githubOther }])).toMatchObject({ identical: ['github-2'], clashes: [] });
  });

  it('keeps a server named like an Object.prototype key as a plain entry', () => {
    const plan = planImport(registry({}), [{ name: '__proto__', config: fs }, { name: 'constructor', config: remote }]);
    expect(Object.keys(plan.next.mcpServers!)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(plan.next))).toEqual(JSON.parse('{"mcpServers":{"__proto__":' + JSON.stringify(fs) + ',"constructor":' + JSON.stringify(remote) + '}}'));
  });
});
