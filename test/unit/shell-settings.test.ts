/** main/shell/settings.ts: the app's settings.json — defaults, validation, atomic writes. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShellSettingsStore } from '../../main/shell/settings';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-shell-settings-'));
  dirs.push(dir);
  return dir;
}

describe('ShellSettingsStore', () => {
  it('defaults to automatic updates on a first launch, without writing anything', () => {
    const dir = tempDir();
    expect(new ShellSettingsStore(join(dir, 'settings.json')).value).toEqual({ autoUpdate: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('persists a change atomically and reads it back in a new store', async () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    await new ShellSettingsStore(path).update({ autoUpdate: false });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ autoUpdate: false });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(new ShellSettingsStore(path).value.autoUpdate).toBe(false);
  });

  it('falls back to the defaults on a broken or wrongly typed file, and says so', () => {
    const dir = tempDir();
    const problems: string[] = [];
    writeFileSync(join(dir, 'a.json'), '{ not json');
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ autoUpdate: 'no' }));
    expect(new ShellSettingsStore(join(dir, 'a.json'), (m) => problems.push(m)).value).toEqual({ autoUpdate: true });
    expect(new ShellSettingsStore(join(dir, 'b.json'), (m) => problems.push(m)).value).toEqual({ autoUpdate: true });
    expect(problems).toHaveLength(2);
  });
});
