import { constants as fsConstants } from 'node:fs';
import { access, chmod, copyFile, link, mkdir, open, readFile, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { HarborError } from '../errors';
import { removeDeadTemps, syncFolder, tempName, writeSynced } from '../fs-atomic';
import { PRIVATE_FOLDER_MODE } from '../private-files';
import { LOCK_WAIT_MS, withFileLock } from '../file-lock';
import { editedText, parseJsonc } from './jsonc';
import { parseRegistryFile, type RegistryFile, type ServerConfig } from './schema';
import { unknownKeyHints } from './unknown-keys';

export interface LoadedRegistry {
  /** The file as read, unknown fields included. */
  readonly file: RegistryFile;
  readonly servers: ReadonlyMap<string, ServerConfig>;
  /** True when no file existed and the defaults were used. */
  readonly fresh: boolean;
  /** registryHash of the text read or written: the watcher tells Harbor's own writes by it. */
  readonly hash?: string;
  /**
   * What is wrong with `"model"` ("path: message" lines, with "did you mean" for a misspelt key):
   * chat and sampling refuse to run until it is fixed; everything else works.
   */
  readonly modelProblems?: readonly string[];
  /** Unknown keys anywhere that are nearly known ones (unknown-keys.ts): "did you mean …". */
  readonly hints?: readonly string[];
}

/** `mcpServers.github.args[1]: expected string` — one line per problem, with its JSON path. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      const k = String(key);
      out += /^[A-Za-z_$][\w$-]*$/.test(k) ? (out ? `.${k}` : k) : `[${JSON.stringify(k)}]`;
    }
  }
  return out || '(file)';
}

/** An edit of the registry: from the file as it is now (re-read under the lock) to the file to write. */
export type RegistryEdit = (current: RegistryFile) => RegistryFile | Promise<RegistryFile>;

export interface UpdateOptions {
  /**
   * The raw editor's save: the SHA-256 of the text it loaded. A file that changed since is
   * refused ("changed since you opened it: reload"), and a broken file may be replaced.
   */
  readonly ifHash?: string;
  /**
   * The raw editor's text, written as typed (comments and all) instead of an edit of the file;
   * `edit` returns what it parses to, which is what gets validated.
   */
  readonly text?: string;
}

/** SHA-256 of the file's text as read (of '' when there is no file): what the raw editor saves against. */
export function registryHash(text: string | undefined): string {
  return createHash('sha256').update(text ?? '', 'utf8').digest('hex');
}

/**
 * Reads, validates and writes the registry file. Every change is an edit applied under an
 * exclusive lock (`harbor.json.lock`, see lock.ts): the file is re-read, the edit applied, the
 * result written atomically with the previous version kept as `.bak`, and only then is the lock
 * released — so edits from the app, the CLI and other Harbors never overwrite each other. A bad
 * file is never overwritten by a form edit: `load` reports every problem and leaves the bytes alone.
 */
export class RegistryStore {
  constructor(
    readonly path: string,
    private readonly defaults: () => RegistryFile = () => ({ mcpServers: {} }),
    private readonly lockWaitMs = LOCK_WAIT_MS,
  ) {}

  async load(): Promise<LoadedRegistry> {
    const text = await this.readText();
    if (text === undefined) {
      const file = this.defaults();
      return { file, servers: toMap(file), fresh: true, hash: registryHash(undefined) };
    }
    return { ...(await this.parse(text)), fresh: false, hash: registryHash(text) };
  }

  /**
   * Applies `edit` to the file as it is now, under the lock, and writes the result. Fails with
   * CONFIG_IO ("another Harbor is changing harbor.json; try again") when another writer holds the
   * lock for more than a few seconds. Returns the registry as written.
   */
  async update(edit: RegistryEdit, options: UpdateOptions = {}): Promise<LoadedRegistry> {
    const target = await this.target();
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return withFileLock(
      target,
      async () => {
        // What killed writers left: their temp files (the lock keeps live ones of this file out).
        await removeDeadTemps(target).catch(() => undefined); // debris only: a failure here loses nothing
        const text = await this.readText();
        if (options.ifHash !== undefined && registryHash(text) !== options.ifHash) {
          throw new HarborError('CONFIG_IO', `${basename(this.path)} changed since you opened it: reload, then make your change again. Nothing was saved.`);
        }
        let current: RegistryFile;
        if (text === undefined) current = this.defaults();
        // A text save (ifHash): the person replaces the very text they saw, so a file that does not parse is not kept.
        else if (options.ifHash !== undefined) current = (await this.parse(text).catch(() => undefined))?.file ?? { mcpServers: {} };
        else current = (await this.parse(text)).file;
        const next = await edit(current);
        const written = await this.write(target, next, text, options.text);
        const checked = parseRegistryFile(next);
        return { file: next, servers: toMap(next), fresh: false, hash: registryHash(written), ...notesOf(next, checked.success ? checked.modelIssues : []) };
      },
      this.lockWaitMs,
    );
  }

  /**
   * First run: writes the defaults only when there is still no file (a no-replace link, never a
   * rename over what another process wrote meanwhile). False when a file appeared: re-read it.
   */
  async createIfMissing(file: RegistryFile): Promise<boolean> {
    const target = await this.target();
    const tmp = tempName(target);
    try {
      await mkdir(dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await writeSynced(tmp, `${JSON.stringify(file, null, 2)}\n`, 0o600);
      await link(tmp, target);
      await syncFolder(dirname(target));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new HarborError('CONFIG_IO', `Cannot write the configuration file ${this.path}: ${(error as Error).message}. Check that its folder is writable.`);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** The file's text, undefined when there is none. */
  async readText(): Promise<string | undefined> {
    try {
      return await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new HarborError('CONFIG_IO', `Cannot read the configuration file ${this.path}: ${(error as Error).message}`);
    }
  }

  /** Parses the text; a broken file's message names the backup Harbor kept, when there is one. */
  private async parse(text: string): Promise<ReturnType<typeof parseRegistryText>> {
    try {
      return parseRegistryText(text, this.path);
    } catch (error) {
      if (!(error instanceof HarborError) || !(await exists(`${this.path}.bak`))) throw error;
      const message = `${error.message} The version Harbor saved before the last change is in ${this.path}.bak.`;
      throw new HarborError(error.code, message, error.detail);
    }
  }

  /** A registry that is a symlink (dotfile managers) is updated where it points, not replaced. */
  private async target(): Promise<string> {
    return realpath(this.path).catch(() => this.path);
  }

  /**
   * The new text is the smallest edit of the file as read (jsonc.ts: the person's comments,
   * order and indentation stay), or the raw editor's text as typed.
   * Writes to a temp file in the same folder (fsynced), keeps the previous version as `.bak`
   * (hard-linked to a temp name, then renamed: a kill never leaves a half backup), renames the new
   * file into place and fsyncs the folder. A crash at any point leaves the old file or the new one,
   * never half of one. The file may hold tokens until they move to the keychain, so it and its
   * backup are owner-only (0600).
   */
  private async write(target: string, file: RegistryFile, before: string | undefined, typed: string | undefined): Promise<string> {
    const checked = parseRegistryFile(file);
    if (!checked.success) {
      const lines = formatIssues(checked.error.issues);
      throw new HarborError(
        'CONFIG_INVALID',
        `Refusing to save an invalid configuration to ${this.path}:\n${lines.map((l) => `  ${l}`).join('\n')}`,
        lines.join('\n'),
      );
    }
    const tmp = tempName(target);
    const bakTmp = tempName(`${target}.bak`);
    const text = typed ?? rendered(before, file);
    try {
      await writeSynced(tmp, text, 0o600);
      if (before !== undefined) {
        await keepBackup(target, bakTmp);
        await rename(bakTmp, `${target}.bak`);
      }
      await rename(tmp, target);
      await syncFolder(dirname(target));
      return text;
    } catch (error) {
      await rm(tmp, { force: true });
      await rm(bakTmp, { force: true });
      throw new HarborError(
        'CONFIG_IO',
        `Cannot write the configuration file ${this.path}: ${(error as Error).message}. Check that its folder is writable; the previous file was left as it was.`,
      );
    }
  }
}

/** `file` as the edit of `before` that changes only what changed; a new (or unreadable) file is written whole. */
function rendered(before: string | undefined, file: RegistryFile): string {
  const whole = `${JSON.stringify(file, null, 2)}\n`;
  if (before === undefined) return whole;
  const old = parseJsonc(before);
  if (!old.ok) return whole; // the raw editor replacing a broken file (ifHash): nothing of it can be kept
  // Undefined only when the edited text would not read back as `file`: then it is written whole.
  return editedText(before, old.value, file) ?? whole;
}

/** The current file under a temp name: a hard link (no copy to be cut short), or, where links are not allowed, a synced copy. */
async function keepBackup(target: string, bakTmp: string): Promise<void> {
  try {
    await link(target, bakTmp);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // removed meanwhile by hand: nothing to keep
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EMLINK') throw error;
    await copyFile(target, bakTmp, fsConstants.COPYFILE_EXCL);
    const handle = await open(bakTmp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  await chmod(bakTmp, 0o600);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export function parseRegistryText(
  text: string,
  source: string,
): { file: RegistryFile; servers: Map<string, ServerConfig>; modelProblems: string[]; hints: string[] } {
  const read = parseJsonc(text);
  if (!read.ok) {
    const message = read.problem.message;
    throw new HarborError(
      'CONFIG_INVALID',
      `${source} is not valid JSON: ${message}.${jsonHint(message)} Fix the file (it was left untouched) and try again.`,
      message,
    );
  }
  const parsed = parseRegistryFile(read.value);
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues);
    throw new HarborError(
      'CONFIG_INVALID',
      `${source} has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${lines.map((l) => `  ${l}`).join('\n')}\nFix the file (it was left untouched) and try again.`,
      lines.join('\n'),
    );
  }
  return { file: parsed.data, servers: toMap(parsed.data), ...notesOf(read.value, parsed.modelIssues) };
}

/** The model's problems and the file's "did you mean" hints, as LoadedRegistry carries them. */
export function notesOf(value: unknown, modelIssues: readonly z.core.$ZodIssue[]): { modelProblems: string[]; hints: string[] } {
  const hints = unknownKeyHints(value);
  const modelProblems = modelIssues.length > 0 ? [...formatIssues(modelIssues), ...hints.filter((h) => h.startsWith('model.'))] : [];
  return { modelProblems, hints };
}

function toMap(file: RegistryFile): Map<string, ServerConfig> {
  return new Map(Object.entries(file.mcpServers ?? {}));
}

/** The one JSON mistake people make most in these files: a Windows path with single backslashes. */
export function jsonHint(parseMessage: string): string {
  return /escape|escaped/i.test(parseMessage) ? ' (In JSON a backslash must be doubled: "C:\\\\Users\\\\me".)' : '';
}
