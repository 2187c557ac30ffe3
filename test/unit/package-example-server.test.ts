/**
 * The example server as a packaged Harbor ships it: scripts/bundle-example-server.mjs writes ONE
 * file, which is copied ALONE to an empty folder (no node_modules anywhere up the tree, like
 * <resources>/example-server beside app.asar on a fresh machine) and run with plain Node — the
 * same as Electron's Node under ELECTRON_RUN_AS_NODE. A real SDK client connects over stdio.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'harbor-bundle-'));
const bundled = join(work, 'build', 'notes-server.mjs');
const alone = join(work, 'fresh-machine', 'example-server');
let client: Client | undefined;

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bundle-example-server.mjs'), bundled], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  expect(r.stdout).toMatch(/self-contained/);
});

afterAll(async () => {
  await client?.close();
  rmSync(work, { recursive: true, force: true });
});

function hasNodeModulesAbove(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) return true;
    if (d === parse(d).root) return false;
  }
}

describe('the bundled example server', () => {
  it('is one ESM file that imports only Node builtins', () => {
    expect(readdirSync(dirname(bundled))).toEqual(['notes-server.mjs']);
    const code = readFileSync(bundled, 'utf8');
    const imports = [...code.matchAll(/^\s*import\s+(?:[^'";]*?\s*from\s*)?["']([^"']+)["']/gm)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((spec) => !spec.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(/from ["']\.\/notes-store\.mjs["']/);
  });

  it('runs alone on plain Node: a client connects over stdio, lists its tools and calls one', async () => {
    mkdirSync(alone, { recursive: true });
    copyFileSync(bundled, join(alone, 'notes-server.mjs'));
    expect(readdirSync(alone)).toEqual(['notes-server.mjs']);
    expect(hasNodeModulesAbove(alone)).toBe(false);

    client = new Client({ name: 'bundle-test', version: '0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5_000 } } });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(alone, 'notes-server.mjs')],
      cwd: alone,
      // Only what Harbor passes: no NODE_PATH, no way back to the repo's node_modules.
      env: { HARBOR_NOTES_DIR: join(work, 'notes'), PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport).catch((error: unknown) => {
      throw new Error(`could not connect: ${String(error)}\nstderr: ${stderr}`);
    });
    expect(client.getServerVersion()?.name).toBe('harbor-notes');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_notes', 'search_notes', 'add_note', 'delete_note']));
    const added = await client.callTool({ name: 'add_note', arguments: { title: 'from the bundle', body: 'runs alone' } });
    expect(added.isError).not.toBe(true);
    expect(readdirSync(join(work, 'notes'))).toContain('notes.json');
  });
});
