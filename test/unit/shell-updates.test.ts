/**
 * main/shell/updates.ts with electron-updater's autoUpdater stood in by an emitter (a real feed
 * and a real install need a packaged app on a real runner): off in development, the setting,
 * what the renderer is told, and that installing waits for the person and stops servers first.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../preload/contract';
import { RotatingLog } from '../../main/shell/log';
import { ShellSettingsStore } from '../../main/shell/settings';
import { updateCheckMessage, UpdateService, type UpdaterLike } from '../../main/shell/updates';
import { waitFor } from '../helpers/wait-for';

const dirs: string[] = [];
const services: UpdateService[] = [];
afterEach(() => {
  for (const s of services.splice(0)) s.dispose();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  logger: unknown = null;
  checks = 0;
  installs: unknown[][] = [];
  /** What a check does: emit like electron-updater does. */
  onCheck: (u: FakeUpdater) => void = (u) => {
    u.emit('checking-for-update');
    u.emit('update-not-available', { version: '0.1.0' });
  };
  async checkForUpdates() {
    this.checks++;
    this.onCheck(this);
    return null;
  }
  quitAndInstall(...args: unknown[]) {
    this.installs.push(args);
  }
}

function setup(options: { isPackaged?: boolean; autoUpdate?: boolean; failLoad?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-updates-'));
  dirs.push(dir);
  const settings = new ShellSettingsStore(join(dir, 'settings.json'));
  // Awaited by the test that sets it: a write still under way when afterEach removes the folder fails its rename.
  const saved = options.autoUpdate === false ? settings.update({ autoUpdate: false }) : undefined;
  const updater = new FakeUpdater();
  const emitted: UpdateStatus[] = [];
  const restarts: Array<() => void> = [];
  let loads = 0;
  const log = new RotatingLog({ dir: join(dir, 'logs') });
  const service = new UpdateService({
    isPackaged: options.isPackaged ?? true,
    currentVersion: '0.1.0',
    settings,
    loadUpdater: async () => {
      loads++;
      if (options.failLoad) throw new Error('no app-update.yml');
      return updater as unknown as UpdaterLike;
    },
    emit: (status) => emitted.push(status),
    restartToInstall: (install) => restarts.push(install),
    log,
    firstCheckDelayMs: 10,
    intervalMs: 60_000,
  });
  services.push(service);
  return { service, updater, emitted, restarts, settings, saved, loads: () => loads, logText: () => readFileSync(log.path, 'utf8') };
}

describe('UpdateService', () => {
  it('development build: unsupported, never loads electron-updater, install refused', async () => {
    const { service, loads } = setup({ isPackaged: false });
    service.start();
    expect(await service.check()).toMatchObject({ state: 'unsupported', currentVersion: '0.1.0', message: expect.stringMatching(/development/) });
    expect(loads()).toBe(0);
    expect(() => service.install()).toThrow(/No update is ready/);
    expect(updateCheckMessage(service.status())).toMatch(/development/);
  });

  it('packaged: checks by itself, downloads, tells the renderer which version is coming, and waits', async () => {
    const { service, updater, emitted, restarts } = setup();
    updater.onCheck = (u) => {
      u.emit('checking-for-update');
      u.emit('update-available', { version: '0.2.0' });
      u.emit('download-progress', { percent: 41.6 });
      u.emit('update-downloaded', { version: '0.2.0' });
    };
    service.start();
    await waitFor(() => emitted.some((s) => s.state === 'ready'), 'the automatic check');
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(emitted.map((s) => [s.state, s.version, s.percent])).toEqual([
      ['checking', undefined, undefined],
      ['available', '0.2.0', undefined],
      ['downloading', '0.2.0', 42],
      ['ready', '0.2.0', undefined],
    ]);
    expect(updateCheckMessage(service.status())).toBe('Harbor 0.2.0 is ready. Restart into it from the update notice when it suits you.');
    // Nothing installs until the person chooses to restart.
    expect(updater.installs).toEqual([]);
    expect(restarts).toEqual([]);
    // A later check does not download it again.
    await service.check();
    expect(updater.checks).toBe(1);
  });

  it('installing: only when an update is ready, after the servers stop (restartToInstall), silently, running Harbor after', async () => {
    const { service, updater, restarts } = setup();
    expect(() => service.install()).toThrow(/No update is ready/);
    updater.onCheck = (u) => u.emit('update-downloaded', { version: '0.2.0' });
    await service.check();
    expect(service.install()).toEqual({ restarting: true });
    expect(updater.installs).toEqual([]); // not before the servers stopped
    restarts[0]!();
    expect(updater.installs).toEqual([[true, true]]);
  });

  it('the setting turns automatic checks off (saved), a manual check still works, and on again resumes', async () => {
    const { service, updater, emitted, settings } = setup();
    const status = await service.setAutoUpdate(false);
    expect(status.autoUpdate).toBe(false);
    expect(settings.value.autoUpdate).toBe(false);
    service.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(updater.checks).toBe(0);
    expect(await service.check()).toMatchObject({ state: 'up-to-date', autoUpdate: false });
    expect(updater.checks).toBe(1);
    await service.setAutoUpdate(true);
    await waitFor(() => updater.checks === 2, 'the resumed automatic check');
    expect(emitted.at(-1)).toMatchObject({ autoUpdate: true });
  });

  it('a disabled setting persisted from last time means no automatic check at start', async () => {
    const { service, updater, saved } = setup({ autoUpdate: false });
    await saved; // the settings write
    service.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(updater.checks).toBe(0);
  });

  it('errors become an error state with a message, and are logged', async () => {
    const { service, updater, logText } = setup();
    updater.onCheck = (u) => {
      (u.logger as { error(m: string): void }).error('net::ERR_INTERNET_DISCONNECTED');
      u.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
    };
    expect(await service.check()).toMatchObject({ state: 'error', message: 'Could not update: net::ERR_INTERNET_DISCONNECTED' });
    expect(logText()).toContain('updater: net::ERR_INTERNET_DISCONNECTED');
  });

  it('an updater that cannot load is reported, not thrown', async () => {
    const { service } = setup({ failLoad: true });
    expect(await service.check()).toMatchObject({ state: 'error', message: expect.stringMatching(/Open Logs Folder/) });
  });

  it('binds the four app.* update commands', async () => {
    const { service } = setup();
    const handlers = service.handlers();
    expect(Object.keys(handlers).sort()).toEqual(['app.checkForUpdates', 'app.installUpdate', 'app.setAutoUpdate', 'app.updateStatus']);
    expect(await handlers['app.updateStatus']()).toEqual({ state: 'idle', currentVersion: '0.1.0', autoUpdate: true });
    await expect(handlers['app.installUpdate']()).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
