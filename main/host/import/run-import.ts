import { readFile } from 'node:fs/promises';
import { serverRef, type ServerRef } from '../consent/identity';
import { HarborError } from '../errors';
import { codeLoadingSettings, notAllowed } from '../registry/code-loading-env';
import { lookalikeProblems } from '../registry/lookalike';
import { isStdio, type RegistryFile } from '../registry/schema';
import type { LoadedRegistry } from '../registry/store';
import type { SecretStore } from '../secrets/store';
import { importServers, type ImportResult } from './formats';
import { findVariables } from './formats/scan';
import { importNeedsKeychain, keychainForPreview } from './keychain-preview';
import { finalNames, planImport, type ClashChoice, type ImportPlan } from './merge-plan';
import { applySecretMoves, planSecretMoves, type LiteralSecret, type SecretMove, type SecretMovePlan } from './secret-moves';

/**
 * Importing another app's MCP configuration, as `harbor import` and the app's Import panel both do
 * it: read and normalise the file, plan the merge (never overwriting a server), move literal
 * secrets into the keychain, and — unless it is a preview — write the keychain first and the
 * registry second, undoing the keychain writes if the registry cannot be saved.
 */
export interface ImportDeps {
  /** The registry as it is now (throws CONFIG_INVALID for a broken file: nothing is written then). */
  readonly load: () => Promise<LoadedRegistry>;
  /** Applies the merge to the registry as it is when written (under the registry lock, atomically). */
  readonly update: (edit: (current: RegistryFile) => RegistryFile) => Promise<void>;
  readonly secrets: SecretStore;
  /**
   * Makes each secret this import moved into the keychain belong to the server it came from (so
   * that server, and only it, is sent the value). Returns an undo, for when the registry cannot be saved.
   */
  readonly bindSecrets: (bindings: ReadonlyArray<{ readonly secret: string; readonly server: ServerRef }>) => () => void;
}

/** A `${secret:…}` in an imported server, and whether this file created that secret (a literal it held, moved to the keychain). */
export interface SecretReference {
  /** The name the server has (or would have) in Harbor. */
  readonly server: string;
  /** e.g. `headers.Authorization`, `env.GITHUB_TOKEN`. */
  readonly where: string;
  readonly secret: string;
  /**
   * False: the file names a secret it did not bring, one already in (or meant for) the keychain.
   * Harbor does not send such a secret to this server unless the person grants it.
   */
  readonly createdByFile: boolean;
}

export interface ImportOutcome {
  readonly result: ImportResult;
  readonly plan: ImportPlan;
  /** Literal secrets moved (or, for a preview or a blocked import, that would move) into the keychain. */
  readonly moved: readonly SecretMove[];
  readonly notMoved: readonly LiteralSecret[];
  /** Every `${secret:…}` the imported servers hold after the move. */
  readonly references: readonly SecretReference[];
  readonly written: boolean;
  /** A name clash nobody decided (no choice, no `rename`): nothing is written. */
  readonly blocked: boolean;
  /** A preview made without a keychain: why it could not be read (the real import will need it). */
  readonly keychainUnavailable?: string;
  /** Variables of added servers that make a runtime load or fetch code; any not allowed: nothing is written. */
  readonly codeLoadingEnv: ReadonlyArray<{ readonly server: string; readonly name: string; readonly value: string; readonly allowed: boolean }>;
  /** Added servers whose name or host mixes scripts; unless the person confirmed (`allowLookalike`), nothing is written. */
  readonly lookalike: ReadonlyArray<{ readonly server: string; readonly problem: string }>;
}

export interface ImportOptions {
  /** Rename every clash without a choice of its own. */
  readonly rename?: boolean;
  /** The person's choice per clashing server (skip, or rename), by its name in the file. */
  readonly choices?: Readonly<Record<string, ClashChoice>>;
  readonly dryRun?: boolean;
  /** Values for the file's VS Code inputs, by id. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Variables that make a runtime load or fetch code (NODE_OPTIONS, LD_PRELOAD…) the person allowed by name (CLI --allow-env). */
  readonly allowEnv?: readonly string[];
  /** The person confirmed names and hosts in mixed scripts (CLI --allow-lookalike). */
  readonly allowLookalike?: boolean;
  /** Import only these servers (by their names in the file); the others are left out as if absent. */
  readonly only?: readonly string[];
}

/** Text pasted into the app (the add-server form's `mcpServers` snippet) instead of a file: read the same way. */
export interface PastedConfig {
  readonly text: string;
}

/** How a pasted snippet is named in messages where a file's path would be. */
export const PASTED_LABEL = 'the pasted text';

export async function runImport(deps: ImportDeps, source: string | PastedConfig, options: ImportOptions): Promise<ImportOutcome> {
  const file = typeof source === 'string' ? source : PASTED_LABEL;
  const text = typeof source === 'string' ? await readImportFile(source) : source.text;
  const result = onlyThese(importServers(text, file, options.inputs ? { inputs: options.inputs } : {}), file, options.only);
  const current = await deps.load();
  // Literal secrets go to the keychain and the registry gets `${secret:…}` references. The
  // keychain unavailable: KEYCHAIN_UNAVAILABLE, nothing written (never plain text) — but a
  // preview writes nothing, so it goes on without one and says so.
  const preview = options.dryRun === true ? keychainForPreview(deps.secrets) : undefined;
  const secrets = await planSecretMoves(result.servers, result.secretsDetected, preview?.reader ?? deps.secrets).catch((error: unknown) => {
    throw importNeedsKeychain(error, file, keychainFree(result));
  });
  const planOptions = { rename: options.rename === true, ...(options.choices ? { choices: options.choices } : {}) };
  const plan = planImport(current.file, secrets.servers, planOptions);

  const blocked = plan.clashes.some((c) => c.renamedTo === undefined && c.skipped !== true);
  const codeLoadingEnv = codeLoadingEnvOf(plan, options.allowEnv);
  const lookalike = plan.added.flatMap((server) => {
    const config = plan.next.mcpServers?.[server];
    return lookalikeProblems(server, config && !isStdio(config) ? config.url : undefined).map((problem) => ({ server, problem }));
  });
  const refusedEnv = codeLoadingEnv.some((v) => !v.allowed) || (lookalike.length > 0 && options.allowLookalike !== true);
  const written = !blocked && !refusedEnv && options.dryRun !== true && plan.added.length > 0;
  const moved = movesOfAddedServers(secrets.moves, plan);
  if (written) {
    // Keychain first: a registry must never reference a secret that was not stored. Then the
    // secrets become their servers' before those servers exist (and could be started).
    const undo = await applySecretMoves(moved, deps.secrets);
    const unbind = deps.bindSecrets(moved.map((m) => ({ secret: m.secret, server: serverRef(m.server, plan.next.mcpServers![m.server]!) })));
    try {
      // The merge again, onto the file as it is now: what another Harbor wrote meanwhile stays.
      await deps.update((now) => {
        const again = planImport(now, secrets.servers, planOptions);
        if (planShape(again) !== planShape(plan)) throw importRaced(file);
        return again.next;
      });
    } catch (error) {
      unbind();
      await undo();
      throw error;
    }
  }
  const references = referencesOf(secrets.servers, secrets.moves, finalNames(plan));
  const keychainUnavailable = preview?.problem();
  return { result, plan, moved, notMoved: secrets.notMoved, references, written, blocked, codeLoadingEnv, lookalike, ...(keychainUnavailable ? { keychainUnavailable } : {}) };
}

/** Each variable of an added server that loads or fetches code, with its value and whether the person allowed it. */
function codeLoadingEnvOf(plan: ImportPlan, allowEnv: readonly string[] | undefined): ImportOutcome['codeLoadingEnv'] {
  return plan.added.flatMap((server) => {
    const config = plan.next.mcpServers?.[server];
    // Set in env, or by the command line itself (`env NODE_OPTIONS=… npx …`, `docker run -e NAME=…`).
    return codeLoadingSettings(config && isStdio(config) ? config : undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, value]) => ({ server, name, value, allowed: notAllowed([name], allowEnv).length === 0 }));
  });
}

/** What an import adds and how each clash is settled: the same on the file as read and as written, or the import stops. */
function planShape(plan: ImportPlan): string {
  return JSON.stringify([plan.added, plan.identical, plan.clashes.map((c) => [c.name, c.renamedTo ?? null, c.skipped === true])]);
}

function importRaced(file: string): HarborError {
  return new HarborError('CONFIG_IO', `The registry changed while ${file} was being imported (a server of the same name was added or removed meanwhile). Nothing was imported: run the import again.`);
}

function referencesOf(servers: SecretMovePlan['servers'], moves: readonly SecretMove[], named: (server: string) => string): SecretReference[] {
  return servers.flatMap(({ name, config }) =>
    findVariables(config)
      .filter((use) => use.kind === 'secret')
      .map((use) => ({
        server: named(name),
        where: use.where,
        secret: use.name,
        createdByFile: moves.some((m) => m.server === name && m.secret === use.name && `${m.where}.${m.key}` === use.where),
      })),
  );
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

/** `--only`: the file's servers narrowed to the names given; a name the file does not hold is a usage error naming the ones it does. */
function onlyThese(result: ImportResult, file: string, only: readonly string[] | undefined): ImportResult {
  if (!only) return result;
  const held = [...result.servers.map((s) => s.name), ...result.skipped.map((s) => s.name)];
  const missing = only.find((name) => !held.includes(name));
  if (missing !== undefined) throw new HarborError('BAD_REQUEST', `--only: ${file} has no server named "${missing}". Its servers: ${held.join(', ') || '(none)'}.`);
  const wanted = new Set(only);
  return {
    ...result,
    servers: result.servers.filter((s) => wanted.has(s.name)),
    skipped: result.skipped.filter((s) => wanted.has(s.name)),
    secretsDetected: result.secretsDetected.filter((s) => wanted.has(s.server)),
    unresolvedVariables: result.unresolvedVariables.filter((v) => wanted.has(v.server)),
    inputsReferenced: result.inputsReferenced.filter((i) => i.servers.some((server) => wanted.has(server))),
  };
}

/** Which servers hold a literal secret (so need the keychain), and which do not. */
function keychainFree(result: ImportResult): { readonly withSecrets: string[]; readonly without: string[]; readonly secrets: number } {
  const withSecrets = [...new Set(result.secretsDetected.map((s) => s.server))];
  return { withSecrets, without: result.servers.map((s) => s.name).filter((name) => !withSecrets.includes(name)), secrets: result.secretsDetected.length };
}
