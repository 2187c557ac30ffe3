/**
 * writeFileAtomic (the data folder's JSON files): a writer killed before its rename leaves
 * `<file>.<pid>.<hex>.tmp`; the next write removes those of dead processes and keeps a live one's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { writeFileAtomic } from '../../main/host/fs-atomic';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

it('a write removes the temp files killed writers of the same file left, and keeps a live writer’s', async () => {
  dir = mkdtempSync(join(tmpdir(), 'harbor-fs-atomic-'));
  const file = join(dir, 'era-cache.json');
  const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
  writeFileSync(`${file}.${dead}.0badcafe.tmp`, '{"half":');
  writeFileSync(`${file}.${process.pid}.0123abcd.tmp`, '{}'); // a live writer (this process) mid-write
  writeFileSync(join(dir, `other.json.${dead}.0badcafe.tmp`), '{}'); // another file's: not this write's business
  await writeFileAtomic(file, '{"ok":true}\n');
  expect(readFileSync(file, 'utf8')).toBe('{"ok":true}\n');
  expect(readdirSync(dir).sort()).toEqual(['era-cache.json', `era-cache.json.${process.pid}.0123abcd.tmp`, `other.json.${dead}.0badcafe.tmp`]);
});
