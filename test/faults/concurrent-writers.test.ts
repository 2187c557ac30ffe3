/**
 * Many Harbors writing the same data file at once, as real processes: twenty processes, each
 * remembering its own server's era with Harbor's EraCache, all released at the same moment. Every
 * entry is kept — none of them writes back only what it read before the others wrote.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE, REPO } from '../helpers/host';

const FIXTURES = join(REPO, 'test/faults/fixtures');
let dir: string | undefined;
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Starts a writer; resolves once it printed "ready", with a promise of its last line and exit. */
function writer(path: string, server: string): Promise<{ child: ChildProcessWithoutNullStreams; finished: Promise<{ code: number | null; lines: string[] }> }> {
  const child = spawn(NODE, ['--experimental-transform-types', '--no-warnings', '--import', join(FIXTURES, 'register-ts.mjs'), join(FIXTURES, 'era-cache-writer.ts'), path, server]);
  children.push(child);
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<{ code: number | null; lines: string[] }>((resolve) => child.on('close', (code) => resolve({ code, lines })));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line === 'ready') resolve({ child, finished });
    });
    void finished.then(({ code }) => reject(new Error(`writer ${server} exited (${code}) before it was ready: ${stderr}`)));
  });
}

const WRITERS = 20;

describe('era-cache.json written by twenty processes at once', () => {
  it("keeps every process's entry", { timeout: 480_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-era-writers-'));
    const path = join(dir, 'era-cache.json');
    const names = Array.from({ length: WRITERS }, (_, i) => `s${i}`);
    const writers = await Promise.all(names.map((name) => writer(path, name)));
    for (const { child } of writers) child.stdin.write('go\n');
    const results = await Promise.all(writers.map(({ finished }) => finished));
    for (const result of results) expect(result).toEqual({ code: 0, lines: ['ready', 'done'] });
    const cache = JSON.parse(readFileSync(path, 'utf8')) as Record<string, { configHash: string }>;
    expect(Object.keys(cache).sort()).toEqual([...names].sort());
    for (const name of names) expect(cache[name]!.configHash).toBe(`hash-${name}`);
  });
});
