/**
 * A data folder Harbor cannot write: read-only, or on a full disk. Each is a real file system — a
 * small tmpfs mounted for the test (root only: as root, chmod restricts nothing, so a mount is the
 * only honest read-only folder). A command that needs a file exits 2 naming it and what is wrong;
 * a command that needs none (`harbor info`) still works; a full disk is told as a full disk, never
 * as "cannot rollback - no transaction is active".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

const ENV = { HARBOR_KEYCHAIN_SERVICE: 'harbor-faults-test' };

/** Whether this process may mount a tmpfs; the reason when not. */
function mountAbility(): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs mounts are Linux only';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (and as a normal user chmod would do, but this suite runs as root in CI)';
  const probe = mkdtempSync(join(tmpdir(), 'harbor-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed here (${(error as Error).message.split('\n')[0]})`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const cannotMount = mountAbility();
if (cannotMount) console.warn(`test/faults/unwritable-data.test.ts skipped: ${cannotMount}`);

let mounted: string | undefined;
let root: string | undefined;
let model: ScriptedModel | undefined;

afterEach(async () => {
  if (mounted) execFileSync('umount', [mounted], { stdio: 'pipe' });
  if (root) rmSync(root, { recursive: true, force: true });
  await model?.close();
  mounted = root = model = undefined;
});

/** A registry outside the mount and a data folder on a tmpfs of `size`. */
function setup(size: string, registry: Record<string, unknown> = { mcpServers: {} }): { flags: string[]; data: string } {
  root = mkdtempSync(join(tmpdir(), 'harbor-unwritable-'));
  const data = join(root, 'data');
  execFileSync('mkdir', [data]);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', data], { stdio: 'pipe' });
  mounted = data;
  const config = join(root, 'harbor.json');
  writeFileSync(config, JSON.stringify(registry, null, 2));
  return { flags: ['--config', config, '--data-dir', data], data };
}

function harbor(flags: string[], ...args: string[]) {
  return runCli([...flags, ...args], { env: ENV });
}

/** Fills the file system under `dir` to its last byte. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    for (;;) {
      try {
        writeSync(fd, chunk, 0, 1);
      } catch {
        break; // Not one byte more: full.
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(cannotMount !== undefined)(`a data folder Harbor cannot write${cannotMount ? ` (skipped: ${cannotMount})` : ''}`, () => {
  it('read-only: a command that writes exits 2 naming the database and the read-only folder (the readers work: read-only-commands.test.ts)', { timeout: 240_000 }, async () => {
    const { flags, data } = setup('1m', { mcpServers: { feat: { command: process.execPath, args: ['-e', '0'] } } });
    const first = await harbor(flags, 'consent', 'list');
    expect(first.code, first.stderr).toBe(0);
    execFileSync('mount', ['-o', 'remount,ro', data], { stdio: 'pipe' });
    const info = await harbor(flags, 'info');
    expect(info.stderr).not.toMatch(/unexpected error/);
    expect(info.code, info.stderr).toBe(0);
    const grant = await harbor(flags, 'consent', 'grant-launch', 'feat');
    expect(grant.stderr).not.toMatch(/unexpected error/);
    expect(grant.code, grant.stderr).toBe(2);
    expect(grant.stderr).toContain(join(data, 'consent.db'));
    expect(grant.stderr).toMatch(/read-only/);
  });

  it('full: a chat turn on a full disk exits 2 saying the disk is full, and the conversations are intact', { timeout: 240_000 }, async () => {
    model = await startScriptedModel({ script: [{ text: 'first answer' }, { text: 'second answer' }] });
    const { flags, data } = setup('2m', { mcpServers: {}, model: model.modelConfig() });
    const first = await harbor(flags, 'chat', 'hello');
    expect(first.code, first.stderr).toBe(0);
    fill(data);
    const full = await harbor(flags, 'chat', 'hello again');
    expect(full.stderr).not.toMatch(/unexpected error|cannot rollback/);
    expect(full.code, full.stderr).toBe(2);
    expect(full.stderr).toContain(join(data, 'conversations.db'));
    expect(full.stderr).toMatch(/disk is full|disk may be full/);
    // Space again: the first conversation is all there, and Harbor works on.
    rmSync(join(data, 'filler'));
    const again = await harbor(flags, 'chat', 'once more');
    expect(again.code, again.stderr).toBe(0);
  });
});
