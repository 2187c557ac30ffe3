/**
 * An append-only, owner-only text file rotated by size: NAME.log → NAME.1.log → … → NAME.<keep>.log,
 * the oldest dropped. Writes are synchronous and small: the lines that matter most are the last
 * ones before a crash, and an async queue would lose exactly those. Shared by Harbor's own log
 * (`DATA/logs/harbor.log`) and the desktop shell's log.
 */
import { appendFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE, securePrivateFolder } from '../private-files';

export interface RotatingFileOptions {
  readonly path: string;
  /** Rotate when the current file would grow past this. */
  readonly maxBytes: number;
  /** Rotated files kept beside the current one. */
  readonly keep: number;
}

export class RotatingFile {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private size: number;

  /** Makes the folder (owner-only) now; a folder removed later is not made again by a write. */
  constructor(options: RotatingFileOptions) {
    this.path = options.path;
    this.maxBytes = options.maxBytes;
    this.keep = Math.max(1, options.keep);
    // Logs quote servers' errors and what people did: the folder and its files are owner-only.
    securePrivateFolder(dirname(this.path));
    this.size = existsSync(this.path) ? statSync(this.path).size : 0;
  }

  /** The rotated files of `path`, newest first (NAME.1.log is the newest). */
  static rotatedPaths(path: string, keep: number): string[] {
    const base = path.replace(/\.log$/, '');
    return Array.from({ length: keep }, (_, i) => `${base}.${i + 1}.log`);
  }

  /**
   * Appends text. Throws what the file system throws (a full disk, a removed folder): the caller
   * decides whether losing a line matters more than going on.
   */
  append(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    appendFileSync(this.path, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    this.size += bytes;
  }

  private rotate(): void {
    // [current, NAME.1.log, …, NAME.<keep>.log]: each moves one place on, the last falls off.
    const chain = [this.path, ...RotatingFile.rotatedPaths(this.path, this.keep)];
    rmSync(chain[chain.length - 1]!, { force: true });
    for (let n = chain.length - 2; n >= 0; n--) {
      if (existsSync(chain[n]!)) renameSync(chain[n]!, chain[n + 1]!);
    }
    this.size = 0;
  }
}
