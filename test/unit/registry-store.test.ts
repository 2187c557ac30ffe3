import { chmod, lstat, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { RegistryStore, parseRegistryText } from '../../main/host/registry/store';
import { checkRegistryText } from '../../main/host/registry/editor';
import type { RegistryFile } from '../../main/host/registry/schema';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harbor-registry-'));
  path = join(dir, 'harbor.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The error `load` throws, for asserting on its message and detail. */
async function loadError(store: RegistryStore): Promise<HarborError> {
  try {
    await store.load();
  } catch (error) {
    expect(error).toBeInstanceOf(HarborError);
    return error as HarborError;
  }
  throw new Error('load() accepted a file it should have rejected');
}

const posix = process.platform !== 'win32';

describe('RegistryStore.load', () => {
  it('returns the defaults with fresh: true when no file exists, and creates nothing', async () => {
    const store = new RegistryStore(path, () => ({ mcpServers: { notes: { command: 'node', args: ['notes.js'] } } }));
    const loaded = await store.load();
    expect(loaded.fresh).toBe(true);
    expect(loaded.file).toEqual({ mcpServers: { notes: { command: 'node', args: ['notes.js'] } } });
    expect([...loaded.servers.keys()]).toEqual(['notes']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('defaults to an empty server list', async () => {
    const loaded = await new RegistryStore(path).load();
    expect(loaded).toMatchObject({ fresh: true, file: { mcpServers: {} } });
    expect(loaded.servers.size).toBe(0);
  });

  it('reads stdio and remote servers with fresh: false (and tolerates a UTF-8 BOM)', async () => {
    await writeFile(
      path,
      '\uFEFF' +
        JSON.stringify({
          mcpServers: {
            github: { command: 'npx', args: ['-y', 'server-github'], env: { A: 'b' }, cwd: '/tmp', enabled: false },
            remote: { url: 'https://example.com/mcp', headers: { 'X-A': '1' }, transport: 'sse', trusted: true, timeoutMs: 5000 },
          },
        }),
    );
    const loaded = await new RegistryStore(path).load();
    expect(loaded.fresh).toBe(false);
    expect(loaded.servers.get('github')).toEqual({ command: 'npx', args: ['-y', 'server-github'], env: { A: 'b' }, cwd: '/tmp', enabled: false });
    expect(loaded.servers.get('remote')).toMatchObject({ url: 'https://example.com/mcp', transport: 'sse', trusted: true });
  });

  it('reports bad JSON with the file name and position, and leaves the bytes alone', async () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "npx" },,\n  }\n}\n';
    await writeFile(path, text);
    const error = await loadError(new RegistryStore(path));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain(path);
    expect(error.message).toContain('not valid JSON');
    expect(error.message).toMatch(/line 3/);
    expect(error.message).toContain('left untouched');
    expect(error.message).not.toMatch(/\n\s+at /); // no stack trace
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('explains single backslashes in Windows paths', async () => {
    await writeFile(path, '{"mcpServers":{"fs":{"command":"C:\\Program Files\\nodejs\\npx.cmd"}}}');
    const error = await loadError(new RegistryStore(path));
    expect(error.message).toContain('backslash must be doubled');
  });

  it('gives one message per schema problem, each with its JSON path, and keeps the file', async () => {
    const text = JSON.stringify(
      {
        mcpServers: {
          github: { command: 'npx', args: ['-y', 3] },
          empty: { command: '' },
          remote: { url: 'ftp://example.com' },
          neither: { description: 'x' },
          scalar: 5,
          env: { command: 'a', env: { PORT: 8080 } },
          flags: { url: 'https://example.com', enabled: 'yes', timeoutMs: 0, transport: 'websocket' },
          'odd name': { command: 'a', args: 'not-an-array' },
          slow: { command: 'a', probeTimeoutMs: 'long' },
        },
      },
      null,
      2,
    );
    await writeFile(path, text);
    const error = await loadError(new RegistryStore(path));
    const lines = error.detail!.split('\n');
    expect(lines).toEqual([
      'mcpServers.github.args[1]: expected string, got number',
      'mcpServers.empty.command: must not be empty',
      'mcpServers.remote.url: must be an http(s) URL',
      'mcpServers.neither: a server needs either "command" (a local stdio server) or "url" (a remote server)',
      'mcpServers.scalar: expected an object with "command" or "url", got number',
      'mcpServers.env.env.PORT: expected string, got number',
      'mcpServers.flags.transport: expected "http" or "sse", got "websocket"',
      'mcpServers.flags.enabled: expected boolean, got string',
      'mcpServers.flags.timeoutMs: must be greater than 0',
      'mcpServers["odd name"].args: expected an array, got string',
      'mcpServers.slow.probeTimeoutMs: expected number, got string',
    ]);
    expect(error.message).toContain(`${path} has 11 problems:`);
    for (const line of lines) expect(error.message).toContain(`  ${line}`);
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('reports a wrong top-level shape against the file and mcpServers', () => {
    expect(() => parseRegistryText('[]', 'f.json')).toThrow(/\(file\): expected an object, got an array/);
    expect(() => parseRegistryText('{"mcpServers":[]}', 'f.json')).toThrow(/mcpServers: expected an object, got an array/);
    expect(() => parseRegistryText('{"mcpServers":{"":{"command":"a"}}}', 'f.json')).toThrow(/mcpServers\[""\]: a name must not be empty/);
  });

  it('never quotes a string value in a type error (it may be a token)', () => {
    let detail = '';
    try {
      parseRegistryText('{"mcpServers":{"x":{"url":"https://e.com","headers":"Bearer sk-SECRET-123"}}}', 'f.json');
    } catch (error) {
      detail = (error as HarborError).message + String((error as HarborError).detail);
    }
    expect(detail).toContain('mcpServers.x.headers: expected an object, got string');
    expect(detail).not.toContain('sk-SECRET-123');
  });

  it('reports an unreadable path as CONFIG_IO', async () => {
    const error = await loadError(new RegistryStore(dir)); // a folder, not a file
    expect(error.code).toBe('CONFIG_IO');
    expect(error.message).toContain(dir);
  });
});

describe('RegistryStore.save', () => {
  const withUnknowns = {
    $schema: 'https://example.com/harbor.schema.json',
    theme: { accent: 'teal' },
    mcpServers: {
      github: {
        command: 'npx',
        args: ['-y', 'server-github'],
        env: { GITHUB_TOKEN: '${secret:github}' },
        alwaysAllow: ['search'],
        notes: { owner: 'me' },
      },
      remote: { url: 'https://example.com/mcp', headers: { 'X-Team': 'core' }, oauth: { clientId: 'abc' } },
    },
  };

  it('round-trips a valid file with unknown top-level and per-server fields kept', async () => {
    await writeFile(path, JSON.stringify(withUnknowns, null, 2));
    const store = new RegistryStore(path);
    const loaded = await store.load();
    expect(loaded.file).toEqual(withUnknowns);
    await store.update(() => loaded.file);
    const again = JSON.parse(await readFile(path, 'utf8')) as unknown;
    expect(again).toEqual(withUnknowns);
    expect((await store.load()).file).toEqual(withUnknowns);
  });

  it('writes atomically: no temp file left, the previous version in .bak', async () => {
    const store = new RegistryStore(path);
    await store.update(() => ({ mcpServers: { one: { command: 'a' } } }));
    expect(await readdir(dir)).toEqual(['harbor.json']); // first save: nothing to back up
    const first = await readFile(path, 'utf8');
    expect(first.endsWith('\n')).toBe(true);

    await store.update(() => ({ mcpServers: { two: { command: 'b' } } }));
    expect((await readdir(dir)).sort()).toEqual(['harbor.json', 'harbor.json.bak']);
    expect(await readFile(`${path}.bak`, 'utf8')).toBe(first);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ mcpServers: { two: { command: 'b' } } });
  });

  it.skipIf(!posix)('keeps the file and its backup owner-only (0600), even when the old file was wider', async () => {
    await writeFile(path, '{"mcpServers":{}}');
    await chmod(path, 0o644);
    const store = new RegistryStore(path);
    await store.update(() => ({ mcpServers: { a: { command: 'x', env: { API_KEY: 'literal' } } } }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(`${path}.bak`)).mode & 0o777).toBe(0o600);
  });

  it('creates the folder when it does not exist yet', async () => {
    const nested = join(dir, 'a', 'b', 'harbor.json');
    await new RegistryStore(nested).update(() => ({ mcpServers: {} }));
    expect(JSON.parse(await readFile(nested, 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('refuses to save an invalid registry and leaves the file untouched', async () => {
    const text = JSON.stringify({ mcpServers: { ok: { command: 'a' } } });
    await writeFile(path, text);
    const store = new RegistryStore(path);
    const bad = { mcpServers: { broken: { command: 'a', args: [1] } } } as unknown as RegistryFile;
    await expect(store.update(() => bad)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      detail: 'mcpServers.broken.args[0]: expected string, got number',
    });
    expect(await readFile(path, 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['harbor.json']);
  });

  it('reports a failed write as CONFIG_IO and leaves no temp file behind', async () => {
    // The registry path is an existing folder: the rename onto it fails after the temp is written.
    const target = join(dir, 'occupied');
    await new RegistryStore(join(target, 'x.json')).update(() => ({ mcpServers: {} }));
    const error = await new RegistryStore(target).update(() => ({ mcpServers: {} })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).code).toBe('CONFIG_IO');
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.skipIf(!posix)('updates a symlinked registry where it points instead of replacing the link', async () => {
    const real = join(dir, 'dotfiles-harbor.json');
    await writeFile(real, '{"mcpServers":{}}');
    await symlink(real, path);
    await new RegistryStore(path).update(() => ({ mcpServers: { a: { command: 'x' } } }));
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8'))).toEqual({ mcpServers: { a: { command: 'x' } } });
    expect(await readFile(`${real}.bak`, 'utf8')).toBe('{"mcpServers":{}}');
  });
});

describe('the raw JSON editor check', () => {
  it('reads text as the loader does: a byte-order mark is fine, and problems read the same', () => {
    const bom = '\uFEFF{"mcpServers":{"a":{"command":"x"}}}';
    expect(parseRegistryText(bom, 'f.json').servers.has('a')).toBe(true);
    expect(checkRegistryText(bom)).toMatchObject({ file: { mcpServers: { a: { command: 'x' } } }, problems: [] });

    const bad = '{\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["-y", 3] }\n  }\n}';
    expect(() => parseRegistryText(bad, 'f.json')).toThrow(/mcpServers\.github\.args\[1\]: expected string, got number/);
    expect(checkRegistryText(bad).problems).toEqual([{ path: 'mcpServers.github.args[1]', message: 'expected string, got number', line: 3, column: 50 }]);
  });
});
