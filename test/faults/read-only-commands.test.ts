/**
 * Commands that only read open only the databases they need, and those read-only (#33 finding 4):
 * on a data folder Harbor may not write they still answer, and on any data folder they write
 * nothing — no file created, changed or removed, not even SQLite's -wal/-shm for a moment (the
 * folder's own mtime is compared too). A read-only folder is a tmpfs remounted read-only when
 * running as root (CI does: as root chmod restricts nothing), else the folder chmod 0500.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { NODE, REPO } from '../helpers/host';

const ENV = { HARBOR_KEYCHAIN_SERVICE: 'harbor-faults-test' };
const SERVER = join(REPO, 'test/fixtures/servers/modern/feature-server.mjs');

/** The commands that only read, as a person runs them. */
const READERS: readonly (readonly string[])[] = [['info'], ['consent', 'list'], ['tasks'], ['tools'], ['servers'], ['skills'], ['logs']];

/** How this process can make a folder read-only; the reason when it cannot. */
function readOnlyWay(): { way: 'mount' | 'chmod' } | { skip: string } {
  if (process.platform === 'win32') return { skip: 'no read-only folder to make on Windows here' };
  if (process.getuid?.() !== 0) return { way: 'chmod' };
  if (process.platform !== 'linux') return { skip: 'as root, chmod restricts nothing and tmpfs mounts are Linux only' };
  const probe = mkdtempSync(join(tmpdir(), 'harbor-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return { way: 'mount' };
  } catch (error) {
    return { skip: `as root chmod restricts nothing, and mount -t tmpfs failed here (${(error as Error).message.split('\n')[0]})` };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const how = readOnlyWay();
if ('skip' in how) console.warn(`test/faults/read-only-commands.test.ts: the read-only folder test is skipped: ${how.skip}`);

let root: string | undefined;
let mounted: string | undefined;

afterEach(() => {
  if (mounted) execFileSync('umount', [mounted], { stdio: 'pipe' });
  if (root) {
    chmodSync(join(root, 'data'), 0o700);
    rmSync(root, { recursive: true, force: true });
  }
  root = mounted = undefined;
});

/** A registry with one stdio server and a data folder (a tmpfs when `mount`); the global flags. */
function setup(mount: boolean): { flags: string[]; data: string } {
  root = mkdtempSync(join(tmpdir(), 'harbor-readers-'));
  const data = join(root, 'data');
  mkdirSync(data, { mode: 0o700 });
  if (mount) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', data], { stdio: 'pipe' });
    mounted = data;
  }
  const config = join(root, 'harbor.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { feat: { command: NODE, args: [SERVER] } } }, null, 2));
  return { flags: ['--config', config, '--data-dir', data], data };
}

function harbor(flags: string[], ...args: string[]) {
  return runCli([...flags, ...args], { env: ENV, timeoutMs: 120_000 });
}

/** Every path under `dir` (itself included) with its size and mtime: what a write would change. */
function snapshot(dir: string): string[] {
  const lines: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path, { bigint: true });
    lines.push(`${path} ${stat.size} ${stat.mtimeNs}`);
    if (stat.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  walk(dir);
  return lines;
}

/** A data folder as the person's use leaves it: a launch approved, the tools listed, a task list. */
async function used(flags: string[]): Promise<void> {
  for (const args of [['consent', 'grant-launch', 'feat'], ['tools'], ['call', 'feat', 'echo', '--args', '{"text":"hi"}', '--yes'], ['consent', 'grant-skill', 'feat', 'skill://none'], ['tasks']]) {
    const run = await harbor(flags, ...args);
    if (args[1] === 'grant-skill') continue; // Only there to create skill-approvals.db when it can; its answer does not matter.
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  }
}

describe('commands that only read', () => {
  it('write nothing to the data folder: no database opened for writing, no -wal/-shm made even for a moment', { timeout: 300_000 }, async () => {
    const { flags, data } = setup(false);
    await used(flags);
    const before = snapshot(data);
    for (const args of READERS) {
      const run = await harbor(flags, ...args);
      expect(run.stderr).not.toMatch(/unexpected error/);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(snapshot(data), `harbor ${args.join(' ')} changed the data folder`).toEqual(before);
    }
  });

  it('on a fresh data folder create no database', { timeout: 300_000 }, async () => {
    const { flags, data } = setup(false);
    for (const args of [['info'], ['consent', 'list'], ['tasks'], ['logs']]) {
      const run = await harbor(flags, ...args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
    expect(readdirSync(data).filter((name) => name.endsWith('.db') || name.includes('.db-'))).toEqual([]);
  });

  it.skipIf('skip' in how)(`work on a read-only data folder and change nothing there${'skip' in how ? ` (skipped: ${how.skip})` : ''}`, { timeout: 300_000 }, async () => {
    const { flags, data } = setup('way' in how && how.way === 'mount');
    await used(flags);
    if (mounted) execFileSync('mount', ['-o', 'remount,ro', data], { stdio: 'pipe' });
    else chmodSync(data, 0o500);
    const before = snapshot(data);
    for (const args of READERS) {
      const run = await harbor(flags, ...args);
      expect(run.stderr).not.toMatch(/unexpected error/);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      if (args[0] === 'consent') expect(run.stdout).toContain('feat');
    }
    expect(snapshot(data)).toEqual(before);
  });

  it('that do not need tasks.db work with a damaged one, and leave it as it is', { timeout: 300_000 }, async () => {
    const { flags, data } = setup(false);
    await used(flags);
    const tasks = join(data, 'tasks.db');
    for (const companion of ['-wal', '-shm']) rmSync(`${tasks}${companion}`, { force: true });
    const bytes = randomBytes(16 * 1024);
    writeFileSync(tasks, bytes);
    for (const args of [['info'], ['consent', 'list'], ['tools'], ['servers'], ['skills'], ['logs'], ['call', 'feat', 'echo', '--args', '{"text":"hi"}', '--yes']]) {
      const run = await harbor(flags, ...args);
      expect(run.stderr).not.toMatch(/unexpected error|tasks\.db/);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
    expect(readFileSync(tasks).equals(bytes)).toBe(true);
    expect(readdirSync(data).filter((name) => name.startsWith('tasks.db.'))).toEqual([]);
  });
});
