import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonical } from '../canonical-json';
import { tempName } from '../fs-atomic';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../private-files';
import type { PinnedFile } from './skill-files';

/** A cached file, as it was verified: its bytes, and for a SKILL.md the frontmatter it was checked against. */
export interface CachedSkillFile {
  readonly bytes: Uint8Array;
  readonly text: string;
}

/**
 * Verified skill files on disk, `DATA/skills/cache/<server identity>/<sha256>`: owner-only (the
 * folders 0700, the files 0600), content-addressed, so a file is reused exactly while the entry's
 * digest for it is the same, and a server never reads another's (the identity — the launch or the
 * URL, hashed — is in the path, not the name). Every hit is hashed again before it is used: a file
 * changed on disk is a miss. A SKILL.md is a hit only while the entry's frontmatter is the one it
 * was verified against.
 */
export class SkillFileCache {
  constructor(private readonly root: string) {}

  get(identity: string, file: PinnedFile, frontmatter?: unknown): CachedSkillFile | undefined {
    const path = this.pathOf(identity, file.digest);
    if (!path) return undefined;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
      if (frontmatter !== undefined && readFileSync(`${path}.frontmatter`, 'utf8') !== canonical(frontmatter)) return undefined;
    } catch {
      return undefined; // not cached (or unreadable): fetched from the server and verified there
    }
    if (bytes.byteLength !== file.size || `sha256:${createHash('sha256').update(bytes).digest('hex')}` !== file.digest) return undefined;
    return { bytes, text: bytes.toString('utf8') };
  }

  /** Keeps a file that was just verified (a failure to write only costs a later read). */
  put(identity: string, file: PinnedFile, bytes: Uint8Array, frontmatter?: unknown): void {
    const path = this.pathOf(identity, file.digest);
    if (!path) return;
    try {
      makePrivateFolder(join(path, '..'));
      if (frontmatter !== undefined) writeWhole(`${path}.frontmatter`, canonical(frontmatter));
      writeWhole(path, bytes);
    } catch {
      // A full disk or a read-only data folder: the file was verified and is used; it is read from the server next time.
    }
  }

  /** The server's folder: its identity ("stdio:<hash>", "http:<hash>") as a file name. */
  folderOf(identity: string): string {
    return join(this.root, identity.replace(/[^A-Za-z0-9_-]/g, '-'));
  }

  private pathOf(identity: string, digest: string): string | undefined {
    const hex = /^sha256:([0-9a-f]{64})$/.exec(digest)?.[1];
    return hex ? join(this.folderOf(identity), hex) : undefined;
  }
}

/** A temp file (owner-only from its creation) renamed over `path`: a reader never sees half a file. */
function writeWhole(path: string, data: string | Uint8Array): void {
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, data, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
