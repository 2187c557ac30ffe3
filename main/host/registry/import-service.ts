import { stat, readFile } from 'node:fs/promises';
import { HarborError } from '../errors';
import { applySecretMoves, planSecretMoves, type LiteralSecret, type SecretMove } from '../secrets/import-secrets';
import type { SecretStore } from '../secrets/store';
import { describeLaunch, resolveLaunch } from '../servers/launch';
import { planImport, type ImportPlan } from './import';
import { FORMAT_LABELS, defaultImportSources, importServers, type ImportResult, type ImportSource } from './importers';
import type { LoadedRegistry } from './store';
import type { RegistryFile } from './schema';

/**
 * Importing another app's MCP configuration, as `harbor import` and the app's Import panel both do
 * it: read and normalise the file, plan the merge (never overwriting a server), move literal
 * secrets into the keychain, and — unless it is a preview — write the keychain first and the
 * registry second, undoing the keychain writes if the registry cannot be saved.
 */
export interface ImportDeps {
  /** The registry as it is now (throws CONFIG_INVALID for a broken file: nothing is written then). */
  readonly load: () => Promise<LoadedRegistry>;
  /** Writes the merged registry (atomically). */
  readonly save: (file: RegistryFile) => Promise<void>;
  readonly secrets: SecretStore;
}

export interface ImportOutcome {
  readonly result: ImportResult;
  readonly plan: ImportPlan;
  /** Literal secrets moved (or, for a preview or a blocked import, that would move) into the keychain. */
  readonly moved: readonly SecretMove[];
  readonly notMoved: readonly LiteralSecret[];
  readonly written: boolean;
  /** A name clash without `rename`: nothing is written. */
  readonly blocked: boolean;
}

export async function runImport(deps: ImportDeps, file: string, options: { readonly rename?: boolean; readonly dryRun?: boolean }): Promise<ImportOutcome> {
  const text = await readImportFile(file);
  const result = importServers(text, file);
  const current = await deps.load();
  // Literal secrets go to the keychain and the registry gets `${secret:…}` references. The
  // keychain unavailable: KEYCHAIN_UNAVAILABLE, nothing written (never plain text).
  const secrets = await planSecretMoves(result.servers, result.secretsDetected, deps.secrets);
  const plan = planImport(current.file, secrets.servers, { rename: options.rename === true });

  const blocked = plan.clashes.some((c) => c.renamedTo === undefined);
  const written = !blocked && options.dryRun !== true && plan.added.length > 0;
  const moved = movesOfAddedServers(secrets.moves, plan);
  if (written) {
    // Keychain first: a registry must never reference a secret that was not stored.
    const undo = await applySecretMoves(moved, deps.secrets);
    try {
      await deps.save(plan.next);
    } catch (error) {
      await undo();
      throw error;
    }
  }
  return { result, plan, moved, notMoved: secrets.notMoved, written, blocked };
}

/** The moves of servers this import writes, under the names they get in the registry. */
function movesOfAddedServers(moves: readonly SecretMove[], plan: ImportPlan): SecretMove[] {
  const renamed = new Map(plan.clashes.flatMap((c) => (c.renamedTo ? [[c.name, c.renamedTo] as const] : [])));
  const clashed = new Set(plan.clashes.map((c) => c.name));
  return moves.flatMap((m) => {
    const to = renamed.get(m.server);
    if (to) return [{ ...m, server: to }];
    return !clashed.has(m.server) && plan.added.includes(m.server) ? [m] : [];
  });
}

async function readImportFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new HarborError('CONFIG_IO', `Cannot read ${file}: ${why}. Nothing was imported.`);
  }
}

/**
 * What an import did (or would do), as data a person or a script reads: names, where secrets
 * went, never a secret value. Findings carry the name the server has (or would have) in Harbor.
 */
export function importReport(outcome: ImportOutcome, configPath: string, dryRun: boolean) {
  const { result, plan } = outcome;
  const named = finalNames(plan);
  return {
    format: result.format,
    source: result.source,
    configPath,
    dryRun,
    written: outcome.written,
    added: plan.added,
    identical: plan.identical,
    clashes: plan.clashes.map((c) => (c.renamedTo ? { name: c.name, renamedTo: c.renamedTo } : { name: c.name })),
    skipped: result.skipped,
    secretsDetected: result.secretsDetected.map((s) => ({ ...s, server: named(s.server) })),
    // Names only, never values.
    secretsMoved: outcome.moved.map((m) => ({ server: m.server, where: m.where, key: m.key, secret: m.secret })),
    secretsNotMoved: outcome.notMoved.map((s) => ({ ...s, server: named(s.server) })),
    inputsReferenced: result.inputsReferenced.map((i) => ({ ...i, servers: i.servers.map(named) })),
    unresolvedVariables: result.unresolvedVariables.map((v) => ({ ...v, server: named(v.server) })),
    warnings: result.warnings.map((w) => ({ ...w, server: named(w.server) })),
  };
}

/** Under which name each incoming server ends up (renamed clashes get their new name). */
export function finalNames(plan: ImportPlan): (server: string) => string {
  const finalName = new Map(plan.clashes.flatMap((c) => (c.renamedTo ? [[c.name, c.renamedTo] as const] : [])));
  return (server) => finalName.get(server) ?? server;
}

/**
 * The app's view of an import: the report plus what each added server runs (its command line or
 * URL, with secrets as `${secret:…}` references), whether it was blocked, and a readable label.
 */
export function importPreview(outcome: ImportOutcome, configPath: string, dryRun: boolean) {
  const report = importReport(outcome, configPath, dryRun);
  const servers = outcome.plan.next.mcpServers ?? {};
  return {
    ...report,
    label: FORMAT_LABELS[outcome.result.format],
    blocked: outcome.blocked,
    servers: outcome.plan.added.flatMap((name) => {
      const config = servers[name];
      if (!config) return [];
      let target: string;
      try {
        // Variables stay as written (`${harbor:node}` is not expanded for a preview).
        target = describeLaunch(resolveLaunch(name, config, { node: '${harbor:node}', resources: '${harbor:resources}', data: '${harbor:data}' }));
      } catch {
        target = 'command' in config ? String(config.command) : String((config as { url?: unknown }).url ?? '');
      }
      return [{ name, transport: 'command' in config ? ('stdio' as const) : ('http' as const), target, enabled: config.enabled !== false }];
    }),
  };
}

/** The usual config files of Claude Desktop, VS Code and Cursor on this machine, and which exist. */
export async function importSources(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<Array<ImportSource & { exists: boolean }>> {
  return Promise.all(
    defaultImportSources(platform, env).map(async (source) => ({
      ...source,
      exists: await stat(source.path).then((s) => s.isFile(), () => false),
    })),
  );
}
