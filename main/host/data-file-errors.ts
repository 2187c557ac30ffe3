/**
 * What a failure of one of Harbor's data files means to the person: a SQLite or file-system error
 * becomes a HarborError naming the file, what is wrong with it and how to get past it. A damaged
 * file or another program's schema is DATA_CORRUPT; a folder Harbor may not write, a full disk or
 * a failing one is CONFIG_IO. Both are exit 2 in the CLI: the person has to act, retrying will not help.
 */
import { HarborError } from './errors';

/** One data file, as the messages name it. */
export interface DataFile {
  readonly path: string;
  /** What the file holds, as a person knows it: "your consent decisions". */
  readonly holds: string;
  /** What moving the file aside costs: "Harbor forgets your consent decisions and asks again". */
  readonly asideCost: string;
}

interface SqliteError {
  readonly code: 'ERR_SQLITE_ERROR';
  readonly errcode: number;
  readonly message: string;
}

// SQLite's primary result codes (an extended code keeps its primary one in the low byte).
const SQLITE_ERROR = 1;
const SQLITE_PERM = 3;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

/** File-system codes that are about the folder or the disk, not about Harbor. */
const FS_CODES: Record<string, string> = {
  EROFS: 'is on a read-only file system',
  EACCES: 'cannot be written by this user (permission denied)',
  EPERM: 'cannot be written by this user (operation not permitted)',
  ENOSPC: 'cannot be written: the disk is full',
  EDQUOT: 'cannot be written: the disk quota is used up',
  EIO: 'cannot be read or written: the disk reported an I/O error',
};

function isSqliteError(error: unknown): error is SqliteError {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_SQLITE_ERROR' && typeof (error as { errcode?: unknown }).errcode === 'number';
}

/** Whether `error` says the file is not a Harbor file of this kind: random bytes, another program's schema. */
export function isDamage(error: unknown): boolean {
  if (!isSqliteError(error)) return false;
  const primary = error.errcode & 0xff;
  return primary === SQLITE_NOTADB || primary === SQLITE_CORRUPT || (primary === SQLITE_ERROR && /no such (table|column)|has no column named/.test(error.message));
}

function damaged(file: DataFile, what: string): HarborError {
  return new HarborError(
    'DATA_CORRUPT',
    `Harbor cannot use ${file.path}, which holds ${file.holds}: ${what}. Quit Harbor and move the file aside (rename it); ${file.asideCost}. The moved file keeps what could still be read.`,
  );
}

function cannotWrite(file: DataFile, what: string): HarborError {
  return new HarborError('CONFIG_IO', `Harbor cannot use ${file.path}, which holds ${file.holds}: the file or its folder ${what}. Free some space or make the folder writable (or pass --data-dir with another folder), then try again.`);
}

/**
 * `error` as the person should read it, for `file`: a HarborError passes unchanged; a SQLite or
 * file-system failure becomes one naming the file and the way out; anything else passes unchanged.
 */
export function dataFileError(error: unknown, file: DataFile): unknown {
  if (error instanceof HarborError) return error;
  if (isSqliteError(error)) {
    const primary = error.errcode & 0xff;
    if (isDamage(error)) {
      return damaged(file, primary === SQLITE_ERROR ? `it is not laid out the way Harbor writes it (${error.message}): another program's file, or a damaged one` : `the file is damaged (${error.message})`);
    }
    if (primary === SQLITE_FULL) return cannotWrite(file, FS_CODES.ENOSPC!);
    if (primary === SQLITE_READONLY || primary === SQLITE_PERM) return cannotWrite(file, `is read-only (${error.message})`);
    if (primary === SQLITE_CANTOPEN) return cannotWrite(file, `cannot be opened (${error.message}): a read-only or missing folder, or one this user may not enter`);
    if (primary === SQLITE_IOERR) return cannotWrite(file, `cannot be read or written (${error.message}): the disk may be full or failing, or the folder read-only`);
    if (primary === SQLITE_BUSY || primary === SQLITE_LOCKED) {
      return new HarborError('CONFIG_IO', `${file.path} stayed locked by another program for too long (${error.message}). Try again once the other Harbor is done.`);
    }
    return error;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && FS_CODES[code]) return cannotWrite(file, `${FS_CODES[code]} (${code})`);
  return error;
}

/** Runs `work`, turning its failure into `dataFileError`'s. */
export function guardData<T>(file: DataFile, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw dataFileError(error, file);
  }
}

/** Runs `work`; a data file Harbor cannot use (its error names it) is told with `warn` when given, else left to what needs it. */
export function unlessDataUnusable(work: () => unknown, warn?: (message: string) => void): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof HarborError) || (error.code !== 'DATA_CORRUPT' && error.code !== 'CONFIG_IO')) throw error;
    warn?.(error.message);
  }
}
