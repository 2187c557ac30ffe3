import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ConsentGate } from '../consent/gate';
import { HarborError } from '../errors';
import { importPreview, importReport, importSources } from '../import/import-report';
import { runImport, type ImportDeps, type ImportOptions, type ImportOutcome, type PastedConfig } from '../import/run-import';
import type { SecretMove } from '../import/secret-moves';
import type { SecretStore } from '../secrets/store';
import type { RegistryEditing } from './registry-editing';
import type { RegistryState } from './registry-state';

/** An import's outcome as it leaves the Host: where each secret went, never its value. */
export type ImportSummary = Omit<ImportOutcome, 'moved'> & { readonly moved: ReadonlyArray<Omit<SecretMove, 'value'>> };

/**
 * Importing another app's MCP configuration (Claude Desktop, VS Code, Cursor): the app's Import
 * panel and `harbor import`, through the same steps (main/host/import/run-import.ts). The merged
 * registry is saved and applied like every other edit.
 */
export class ImportService {
  constructor(
    private readonly registry: RegistryState,
    private readonly editing: RegistryEditing,
    private readonly secrets: SecretStore,
    private readonly consent: ConsentGate,
    private readonly configPath: string,
  ) {}

  /** The usual config files of the apps Harbor imports from, and which of them exist here. */
  sources(): ReturnType<typeof importSources> {
    return importSources();
  }

  /**
   * What importing `path` (or a pasted snippet) would add, rename, skip, and which secrets would move to the keychain.
   * Writes nothing. `inputs`: values for the file's VS Code inputs (the app's form), by id.
   */
  async preview(path: string | PastedConfig, rename: boolean, inputs?: Readonly<Record<string, string>>, choices?: ImportOptions['choices'], allowEnv?: readonly string[], allowLookalike?: boolean): Promise<ReturnType<typeof importPreview>> {
    const outcome = await runImport(this.deps(), typeof path === 'string' ? appImportPath(path) : path, { rename, dryRun: true, allowLookalike: allowLookalike === true, ...(inputs ? { inputs } : {}), ...(choices ? { choices } : {}), ...(allowEnv ? { allowEnv } : {}) });
    return importPreview(outcome, this.configPath, true);
  }

  /**
   * Imports `path`: secrets to the keychain first, then the registry. `choices` skip or rename
   * each clashing server; nothing is written while a clash is undecided (and `rename` is off).
   */
  async apply(path: string | PastedConfig, rename: boolean, inputs?: Readonly<Record<string, string>>, choices?: ImportOptions['choices'], allowEnv?: readonly string[], allowLookalike?: boolean): Promise<ReturnType<typeof importPreview>> {
    const outcome = await runImport(this.deps(), typeof path === 'string' ? appImportPath(path) : path, { rename, allowLookalike: allowLookalike === true, ...(inputs ? { inputs } : {}), ...(choices ? { choices } : {}), ...(allowEnv ? { allowEnv } : {}) });
    return importPreview(outcome, this.configPath, false);
  }

  /** `harbor import FILE`: the outcome (for the human report) and the report scripts read. */
  async run(file: string, options: ImportOptions): Promise<{ outcome: ImportSummary; report: ReturnType<typeof importReport> }> {
    const outcome = await runImport(this.deps(), file, options);
    const moved = outcome.moved.map(({ value: _value, ...move }) => move);
    return { outcome: { ...outcome, moved }, report: importReport(outcome, this.configPath, options.dryRun === true) };
  }

  private deps(): ImportDeps {
    // A fresh read: an import starts from what is on disk (a broken file throws CONFIG_INVALID, nothing written).
    return {
      load: () => this.registry.read(),
      update: async (edit) => void (await this.editing.edit(edit)),
      secrets: this.secrets,
      // A literal the file held, moved to the keychain, belongs to the server that held it.
      bindSecrets: (bindings) => {
        const added = bindings.filter((b) => !this.consent.isSecretBound(b.secret, b.server.identity));
        for (const { secret, server } of added) this.consent.bindSecret(secret, server, 'set');
        return () => {
          for (const { secret, server } of added) this.consent.unbindSecret(secret, server.identity);
        };
      },
    };
  }
}

/** An import path from the app: absolute, or starting with ~ for the home folder. */
function appImportPath(path: string): string {
  const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
  if (!isAbsolute(expanded)) {
    throw new HarborError('BAD_REQUEST', `"${path}" is not a full path: give the whole path of the file, e.g. ~/.cursor/mcp.json.`);
  }
  return expanded;
}
