import { existsSync } from 'node:fs';
import type { RegistryProblem } from '../../../preload/contract';
import { checkRegistryText } from '../registry/editor';
import { HarborError } from '../errors';
import { serverEntryProblems } from '../registry/entry-problems';
import { rootsProblems } from '../registry/roots';
import type { RegistryFile, ServerConfig } from '../registry/schema';
import { parseRegistryText, registryHash, type LoadedRegistry, type RegistryEdit, type RegistryStore, type UpdateOptions } from '../registry/store';

/**
 * The registry as the Host last read it: the valid file, or the problems that keep it from being
 * used (a bad file is reported, never fatal, and left untouched). Everything that reads a server's
 * configuration asks here; everything that writes goes through `update`, with an edit.
 */
export class RegistryState {
  private loaded: LoadedRegistry | undefined;
  private problemLines: string[] = [];
  /** The hash of the text last read or written, so a reread of the same text changes nothing. */
  private lastHash: string | undefined;

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
        await this.store.createIfMissing(this.loaded.file).catch(() => true);
        // Read back whichever file is there now (its hash: the watcher must not take it for an edit).
        this.loaded = await this.store.load();
      }
      this.lastHash = this.loaded.hash;
    } catch (error) {
      if (!(error instanceof HarborError)) throw error;
      this.problemLines = (error.detail ?? error.message).split('\n');
      this.loaded = undefined;
      this.lastHash = registryHash(await this.store.readText().catch(() => undefined)); // unreadable: the next change is read again
    }
  }

  /**
   * The file read again while Harbor runs (the watcher): undefined when it is what Harbor last
   * read or wrote (its own write, or a touch). A valid file becomes the registry; a broken one
   * leaves the last good registry running and comes back as its problems, each where it is.
   */
  async refresh(): Promise<{ problems: RegistryProblem[] } | undefined> {
    const text = await this.store.readText();
    const hash = registryHash(text);
    if (hash === this.lastHash) return undefined;
    this.lastHash = hash;
    const checked: { file?: RegistryFile; problems: RegistryProblem[] } =
      text === undefined ? { problems: [{ path: '(file)', message: 'the file was removed; Harbor keeps running the servers it had until it is back' }] } : checkRegistryText(text);
    if (!checked.file) {
      this.problemLines = checked.problems.map((p) => `${p.path}: ${p.message}`);
      return { problems: checked.problems };
    }
    const read = parseRegistryText(text!, this.configPath);
    this.loaded = { file: read.file, servers: read.servers, fresh: false, hash, modelProblems: read.modelProblems, hints: read.hints };
    this.problemLines = [];
    return { problems: [] };
  }

  /**
   * Applies an edit to the file as it is on disk now, under the registry lock (atomically,
   * keeping .bak), and keeps the result: a change another process made meanwhile is kept too.
   */
  async update(edit: RegistryEdit, options?: UpdateOptions): Promise<void> {
    this.loaded = await this.store.update(edit, options);
    this.lastHash = this.loaded.hash;
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

  /** The registry in use; a `"model"` that has problems is left out (chat and sampling say why: modelProblems). */
  get file(): RegistryFile | undefined {
    if (!this.loaded?.modelProblems?.length) return this.loaded?.file;
    const { model: _unusable, ...rest } = this.loaded.file;
    return rest as RegistryFile;
  }

  /** What is wrong with `"model"` (with "did you mean" for a misspelt key); empty when it is usable or absent. */
  get modelProblems(): readonly string[] {
    return this.loaded?.modelProblems ?? [];
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
    // Roots that are not existing folders are listed too; the server starts without them. A file
    // broken by hand while Harbor runs is listed first (the last good registry keeps running).
    return [...this.problemLines, ...(this.loaded.modelProblems ?? []), ...(this.loaded.hints ?? []).filter((h) => !this.loaded?.modelProblems?.includes(h)), ...this.serverProblems()];
  }

  private serverProblems(): string[] {
    if (!this.loaded) return [];
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
