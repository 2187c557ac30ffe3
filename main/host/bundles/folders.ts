import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { makePrivateFolder } from '../private-files';

/** Scratch folders (unpacking, swapped-out versions) a crashed Harbor left are removed after this long. */
const STALE_SCRATCH_MS = 60 * 60 * 1000;

/**
 * `bundles/` under the data folder (owner-only, like all of it): `bundles/NAME/VERSION/` per
 * installed bundle, and dot-named scratch folders while an install runs. A bundle is unpacked
 * into scratch first and moved into place only when it unpacked whole, so a failed install
 * leaves nothing behind; folders no installed server refers to any more are removed (a removed
 * server takes its files along, an update its old version).
 */
export class BundleFolders {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'bundles');
  }

  /** Where the signature check writes its scratch copy. */
  get scratch(): string {
    return join(this.root, '.scratch');
  }

  /** A fresh, empty scratch folder to unpack into. */
  stage(): string {
    makePrivateFolder(this.root);
    return join(this.root, `.staging-${randomBytes(8).toString('hex')}`);
  }

  /** The folder of one installed version. */
  target(server: string, version: string): string {
    return join(this.root, server, version);
  }

  /**
   * Moves an unpacked stage into `target`. A folder already there (the same version installed
   * again) is set aside; `undo` puts it back, `done` removes it.
   */
  async commit(stage: string, target: string): Promise<{ undo(): Promise<void>; done(): Promise<void> }> {
    makePrivateFolder(resolve(target, '..'));
    const aside = existsSync(target) ? join(this.root, `.trash-${randomBytes(8).toString('hex')}`) : undefined;
    if (aside) await rename(target, aside);
    try {
      await rename(stage, target);
    } catch (error) {
      if (aside) await rename(aside, target);
      throw error;
    }
    return {
      undo: async () => {
        await rm(target, { recursive: true, force: true });
        if (aside) await rename(aside, target);
      },
      done: async () => {
        if (aside) await rm(aside, { recursive: true, force: true });
      },
    };
  }

  /** Removes a folder this Harbor made (a failed stage), and `bundles/` itself when that leaves it empty. */
  async discard(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await this.removeEmpty(this.scratch);
    await this.removeEmpty(this.root);
  }

  /**
   * Removes every `bundles/NAME/VERSION/` that no installed server refers to (`inUse`: their
   * folders), empty NAME folders, and scratch older than an hour.
   */
  async collect(inUse: ReadonlySet<string>): Promise<string[]> {
    if (!existsSync(this.root)) return [];
    const keep = new Set([...inUse].map((dir) => resolve(dir)));
    const removed: string[] = [];
    for (const name of await readdir(this.root)) {
      const path = join(this.root, name);
      if (name.startsWith('.')) {
        const info = await stat(path).catch(() => undefined); // gone since readdir: nothing left to collect
        if (name === '.scratch') await this.removeEmpty(path);
        else if (info && Date.now() - info.mtimeMs > STALE_SCRATCH_MS) await rm(path, { recursive: true, force: true });
        continue;
      }
      if (!(await stat(path)).isDirectory()) continue;
      for (const version of await readdir(path)) {
        const dir = join(path, version);
        if (keep.has(resolve(dir))) continue;
        await rm(dir, { recursive: true, force: true });
        removed.push(dir);
      }
      await this.removeEmpty(path);
    }
    await this.removeEmpty(this.root);
    return removed;
  }

  /** Whether `dir` lies inside bundles/ (an installed entry's folder Harbor may delete). */
  owns(dir: string): boolean {
    return resolve(dir).startsWith(resolve(this.root) + sep);
  }

  private async removeEmpty(dir: string): Promise<void> {
    await rmdir(dir).catch(() => undefined); // not empty (still in use) or already gone: both leave it as it should be
  }
}
