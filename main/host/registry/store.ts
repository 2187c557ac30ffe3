import { chmod, copyFile, mkdir, open, readFile, realpath, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { HarborError } from '../errors';
import { PRIVATE_FOLDER_MODE } from '../private-files';
import { parseRegistryFile, type RegistryFile, type ServerConfig } from './schema';

export interface LoadedRegistry {
  /** The file as read, unknown fields included; what `save` writes back. */
  readonly file: RegistryFile;
  readonly servers: ReadonlyMap<string, ServerConfig>;
  /** True when no file existed and the defaults were used. */
  readonly fresh: boolean;
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

/**
 * Reads, validates and atomically writes the registry file. A bad file is never overwritten:
 * `load` reports every problem and leaves the bytes alone.
 */
export class RegistryStore {
  constructor(
    readonly path: string,
    private readonly defaults: () => RegistryFile = () => ({ mcpServers: {} }),
  ) {}

  async load(): Promise<LoadedRegistry> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        const file = this.defaults();
        return { file, servers: toMap(file), fresh: true };
      }
      throw new HarborError('CONFIG_IO', `Cannot read the configuration file ${this.path}: ${(error as Error).message}`);
    }
    return { ...parseRegistryText(text, this.path), fresh: false };
  }

  /**
   * Writes to a temp file in the same folder, keeps the previous version as `.bak`, then renames:
   * a crash at any point leaves either the old file or the new one, never half of one. The file
   * may hold tokens until they move to the keychain, so it and its backup are owner-only (0600).
   */
  async save(file: RegistryFile): Promise<void> {
    const checked = parseRegistryFile(file);
    if (!checked.success) {
      const lines = formatIssues(checked.error.issues);
      throw new HarborError(
        'CONFIG_INVALID',
        `Refusing to save an invalid configuration to ${this.path}:\n${lines.map((l) => `  ${l}`).join('\n')}`,
        lines.join('\n'),
      );
    }
    // A registry that is a symlink (dotfile managers) is updated where it points, not replaced.
    const target = await realpath(this.path).catch(() => this.path);
    const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      const handle = await open(tmp, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
        await handle.sync(); // the bytes are on disk before the rename makes them the registry
      } finally {
        await handle.close();
      }
      try {
        await copyFile(target, `${target}.bak`);
        await chmod(`${target}.bak`, 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      throw new HarborError(
        'CONFIG_IO',
        `Cannot write the configuration file ${this.path}: ${(error as Error).message}. Check that its folder is writable; the previous file was left as it was.`,
      );
    }
  }
}

export function parseRegistryText(text: string, source: string): { file: RegistryFile; servers: Map<string, ServerConfig> } {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    throw new HarborError(
      'CONFIG_INVALID',
      `${source} is not valid JSON: ${message}.${jsonHint(message)} Fix the file (it was left untouched) and try again.`,
      message,
    );
  }
  const parsed = parseRegistryFile(json);
  if (!parsed.success) {
    const lines = formatIssues(parsed.error.issues);
    throw new HarborError(
      'CONFIG_INVALID',
      `${source} has ${lines.length} problem${lines.length === 1 ? '' : 's'}:\n${lines.map((l) => `  ${l}`).join('\n')}\nFix the file (it was left untouched) and try again.`,
      lines.join('\n'),
    );
  }
  return { file: parsed.data, servers: toMap(parsed.data) };
}

function toMap(file: RegistryFile): Map<string, ServerConfig> {
  return new Map(Object.entries(file.mcpServers ?? {}));
}

/** The one JSON mistake people make most in these files: a Windows path with single backslashes. */
export function jsonHint(parseMessage: string): string {
  return /escape|escaped/i.test(parseMessage) ? ' (In JSON a backslash must be doubled: "C:\\\\Users\\\\me".)' : '';
}
