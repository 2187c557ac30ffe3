import { existsSync } from 'node:fs';
import { HarborError } from '../errors';
import { serverEntryProblems } from '../registry/placeholders';
import { rootsProblems } from '../registry/roots';
import type { RegistryFile, ServerConfig } from '../registry/schema';
import { registryHash, type LoadedRegistry, type RegistryEdit, type RegistryStore, type UpdateOptions } from '../registry/store';

/**
 * The registry as the Host last read it: the valid file, or the problems that keep it from being
 * used (a bad file is reported, never fatal, and left untouched). Everything that reads a server's
 * configuration asks here; everything that writes goes through `update`, with an edit.
 */
export class RegistryState {
  private loaded: LoadedRegistry | undefined;
  private problemLines: string[] = [];

  constructor(
    private readonly store: RegistryStore,
    private readonly configPath: string,
    /** Write the defaults on first launch, so the person sees (and can edit) what Harbor runs. */
    private readonly writeDefaults: boolean,
  ) {}

  /** (Re)reads the file. A file with problems leaves no registry and records its problems. */
  async reload(): Promise<void> {
    try {
      this.loaded = await this.store.load();
      this.problemLines = [];
      if (this.loaded.fresh && this.writeDefaults) {
        // Create-only: a file another process wrote since the read (an import) is read, never
        // replaced. A folder Harbor cannot write keeps the defaults in memory (the first edit reports it).
        const created = await this.store.createIfMissing(this.loaded.file).catch(() => true);
        if (!created) this.loaded = await this.store.load();
      }
    } catch (error) {
      if (!(error instanceof HarborError)) throw error;
      this.problemLines = (error.detail ?? error.message).split('\n');
      this.loaded = undefined;
    }
  }

  /**
   * Applies an edit to the file as it is on disk now, under the registry lock (atomically,
   * keeping .bak), and keeps the result: a change another process made meanwhile is kept too.
   */
  async update(edit: RegistryEdit, options?: UpdateOptions): Promise<void> {
    this.loaded = await this.store.update(edit, options);
    this.problemLines = [];
  }

  /** The file's text and its hash, for the raw editor (which saves against that hash). */
  async text(): Promise<{ text: string | undefined; hash: string }> {
    const text = await this.store.readText();
    return { text, hash: registryHash(text) };
  }

  /** A fresh read of the file, for an edit that must start from what is on disk (import). */
  read(): Promise<LoadedRegistry> {
    return this.store.load();
  }

  get file(): RegistryFile | undefined {
    return this.loaded?.file;
  }

  /** The configured servers; none while the file has problems. */
  get servers(): ReadonlyMap<string, ServerConfig> {
    return this.loaded?.servers ?? new Map();
  }

  server(name: string): ServerConfig | undefined {
    return this.loaded?.servers.get(name);
  }

  /**
   * The file's problems, one per line ("path: message"), empty when it is valid. A valid file can
   * still hold servers that cannot start as written (a placeholder of another app left in them):
   * those are listed too, by server, while the other servers work.
   */
  get problems(): readonly string[] {
    if (!this.loaded) return this.problemLines;
    // Roots that are not existing folders are listed too; the server starts without them.
    return [...this.loaded.servers].flatMap(([name, config]) => [...serverEntryProblems(config), ...rootsProblems(config.roots)].map((problem) => `mcpServers${/^[A-Za-z_$][\w$-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`}: ${problem}`));
  }

  /** Throws the file's problems (CLI: exit 2); the app shows them instead. */
  requireValid(): LoadedRegistry {
    if (!this.loaded) {
      throw new HarborError(
        'CONFIG_INVALID',
        `${this.configPath} has problems:\n${this.problemLines.map((p) => `  ${p}`).join('\n')}\nFix the file (it was left untouched) and try again.${backupHint(this.configPath)}`,
        this.problemLines.join('\n'),
      );
    }
    return this.loaded;
  }
}

/** Where the last good version is, when Harbor kept one (every save keeps the one before as `.bak`). */
function backupHint(configPath: string): string {
  const backup = `${configPath}.bak`;
  return existsSync(backup) ? ` The version Harbor saved before its last change is in ${backup}.` : '';
}
