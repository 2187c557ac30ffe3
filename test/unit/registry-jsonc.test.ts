// harbor.json is JSON with comments: Harbor reads it with jsonc-parser and writes each change as
// the smallest edit of the person's own text (#31 item 2, #33 finding 2).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { checkRegistryText, withServerAdded, withServerRemoved, withServerUpdated } from '../../main/host/registry/editor';
import { editedText, parseJsonc } from '../../main/host/registry/jsonc';
import { RegistryStore } from '../../main/host/registry/store';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harbor-jsonc-'));
  path = join(dir, 'harbor.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const COMMENTED = `{
    // My servers. Keep "notes" first.
    "mcpServers": {
        "notes": { "command": "node", "args": ["notes.mjs"] }, // the example
        /* work */
        "gh": {
            "command": "npx",
            "args": ["-y", "server-github"],
        },
    },
    "theme": "mine" // a field Harbor does not know
}
`;

describe('reading harbor.json with comments', () => {
  it('loads a file with comments and trailing commas', async () => {
    await writeFile(path, COMMENTED);
    const loaded = await new RegistryStore(path).load();
    expect([...loaded.servers.keys()]).toEqual(['notes', 'gh']);
    expect(loaded.file).toMatchObject({ theme: 'mine' });
  });

  it('names the line and column of a syntax error', async () => {
    await writeFile(path, '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n');
    const error = await new RegistryStore(path).load().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).message).toMatch(/line 4, column 5: expected ","/);
    const checked = checkRegistryText('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n');
    expect(checked.problems).toEqual([{ path: '(file)', message: expect.stringMatching(/line 4, column 5/) as unknown, line: 4, column: 5 }]);
  });

  it('keeps "__proto__" a server name, never a prototype', () => {
    const parsed = parseJsonc('{"mcpServers": {"__proto__": {"command": "x"}}}');
    expect(parsed.ok).toBe(true);
    const servers = (parsed as { value: { mcpServers: object } }).value.mcpServers;
    expect(Object.keys(servers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(servers)).toBe(Object.prototype);
  });

  it('finds the line of a schema problem below a comment', () => {
    const text = '{\n  // "mcpServers": {"x": 1}\n  "mcpServers": {\n    "a": { "command": "x", "args": [1] }\n  }\n}\n';
    expect(checkRegistryText(text).problems).toEqual([expect.objectContaining({ path: 'mcpServers.a.args[0]', line: 4 })]);
  });
});

describe("Harbor's writes keep the person's text", () => {
  it('adding a server keeps comments, indentation and key order', async () => {
    await writeFile(path, COMMENTED);
    await new RegistryStore(path).update((file) => withServerAdded(file, 'fs', { command: 'npx', args: ['fs'] }));
    const text = await readFile(path, 'utf8');
    expect(text.startsWith(COMMENTED.slice(0, COMMENTED.indexOf('        },\n    },')))).toBe(true);
    expect(text).toContain('// the example');
    expect(text).toContain('/* work */');
    expect(text).toContain('"theme": "mine" // a field Harbor does not know');
    expect(text).toMatch(/\n {8}"fs": \{\n {12}"command": "npx",/);
    expect([...(await new RegistryStore(path).load()).servers.keys()]).toEqual(['notes', 'gh', 'fs']);
  });

  it('turning a server off and removing another touch only their own lines', async () => {
    await writeFile(path, COMMENTED);
    const store = new RegistryStore(path);
    await store.update((file) => withServerUpdated(file, 'gh', { ...file.mcpServers!.gh, enabled: false }));
    await store.update((file) => withServerRemoved(file, 'notes'));
    const text = await readFile(path, 'utf8');
    expect(text).toContain('// My servers. Keep "notes" first.');
    expect(text).toContain('"theme": "mine" // a field Harbor does not know');
    expect(text).not.toContain('notes.mjs');
    expect(text).toMatch(/"mcpServers": \{\n {8}"gh": \{\n {12}"command": "npx",/);
    expect(text).toMatch(/"args": \["-y", "server-github"\],\n {12}"enabled": false/);
    expect((await store.load()).file).toEqual({ mcpServers: { gh: { command: 'npx', args: ['-y', 'server-github'], enabled: false } }, theme: 'mine' });
  });

  it('a renamed server keeps its place', () => {
    const text = '{\n  "mcpServers": {\n    "a": {"command": "x"},\n    "b": {"command": "y"},\n    "c": {"command": "z"}\n  }\n}\n';
    const before = { mcpServers: { a: { command: 'x' }, b: { command: 'y' }, c: { command: 'z' } } };
    const after = withServerUpdated(before, 'b', { command: 'y' }, 'bee');
    const edited = editedText(text, before, after)!;
    expect(Object.keys((parseJsonc(edited) as { value: { mcpServers: object } }).value.mcpServers)).toEqual(['a', 'bee', 'c']);
  });

  it("the raw editor's save writes the person's text as typed, comments included", async () => {
    await writeFile(path, '{"mcpServers": {}}\n');
    const store = new RegistryStore(path);
    const typed = '{\n  // added by hand\n  "mcpServers": {"a": {"command": "x"}}\n}\n';
    const file = checkRegistryText(typed).file!;
    await store.update(() => file, { text: typed });
    expect(await readFile(path, 'utf8')).toBe(typed);
  });
});
