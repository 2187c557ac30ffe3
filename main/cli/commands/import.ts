import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HarborError } from '../../host/errors';
import { planImport, type ImportPlan } from '../../host/registry/import';
import { FORMAT_LABELS, importServers, type ImportResult } from '../../host/registry/importers';
import { RegistryStore } from '../../host/registry/store';
import { applySecretMoves, planSecretMoves, type SecretMove } from '../../host/secrets/import-secrets';
import type { LiteralSecret } from '../../host/secrets/import-secrets';
import type { CliCommand, CliContext } from '../command';
import { EXIT } from '../output';

/**
 * `harbor import FILE [--rename] [--dry-run]`: merges the servers of a Claude Desktop, VS Code or
 * Cursor configuration into Harbor's registry. Never half-applied: when a name clashes and
 * --rename is not given, nothing is written and the command exits 2.
 */
export const importCommand: CliCommand = {
  name: 'import',
  summary: 'Import servers from a Claude Desktop, VS Code or Cursor config file (never overwrites)',
  usage: 'import FILE [--rename] [--dry-run]',
  options: {
    rename: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const file = resolve(ctx.args[0]!);
    const rename = ctx.options.rename === true;
    const dryRun = ctx.options['dry-run'] === true;

    const text = await readImportFile(file);
    const result = importServers(text, file);

    const host = await ctx.host();
    const configPath = host.appInfo().configPath;
    const store = new RegistryStore(configPath);
    const current = await store.load(); // a broken registry throws CONFIG_INVALID: exit 2, file untouched
    // Literal secrets go to the keychain and the registry gets `${secret:…}` references. The
    // keychain unavailable: KEYCHAIN_UNAVAILABLE, exit 3, nothing written (never plain text).
    const secrets = await planSecretMoves(result.servers, result.secretsDetected, host.secrets);
    const plan = planImport(current.file, secrets.servers, { rename });

    const blocked = plan.clashes.some((c) => c.renamedTo === undefined);
    const written = !blocked && !dryRun && plan.added.length > 0;
    const moved = movesOfAddedServers(secrets.moves, plan);
    if (written) {
      // Keychain first: a registry must never reference a secret that was not stored.
      const undo = await applySecretMoves(moved, host.secrets);
      try {
        await store.save(plan.next);
      } catch (error) {
        await undo();
        throw error;
      }
    }

    report(ctx, { result, plan, configPath, written, dryRun, blocked, moved, notMoved: secrets.notMoved });

    if (blocked) return EXIT.USAGE;
    // Every entry was broken: that is a bad import file, not "nothing to do".
    if (result.servers.length === 0 && result.skipped.length > 0) {
      ctx.out.error(`no server in ${file} could be imported: fix the problems listed above and try again.`);
      return EXIT.USAGE;
    }
    return EXIT.OK;
  },
};

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

interface Outcome {
  readonly result: ImportResult;
  readonly plan: ImportPlan;
  readonly configPath: string;
  readonly written: boolean;
  readonly dryRun: boolean;
  readonly blocked: boolean;
  /** Literal secrets moved (or, dry run / blocked, to be moved) into the keychain. */
  readonly moved: readonly SecretMove[];
  readonly notMoved: readonly LiteralSecret[];
}

function report(ctx: CliContext, outcome: Outcome): void {
  const { result, plan } = outcome;
  // Findings are reported under the name the server has (or would have) in Harbor's registry.
  const finalName = new Map(plan.clashes.flatMap((c) => (c.renamedTo ? [[c.name, c.renamedTo] as const] : [])));
  const named = (server: string) => finalName.get(server) ?? server;

  const json = {
    format: result.format,
    source: result.source,
    configPath: outcome.configPath,
    dryRun: outcome.dryRun,
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
  ctx.out.result(json, humanReport(outcome, named));
  if (outcome.blocked) {
    const names = plan.clashes.filter((c) => !c.renamedTo).map((c) => c.name);
    ctx.out.error(
      `${names.length} name clash${names.length === 1 ? '' : 'es'} (${names.join(', ')}): nothing was written. ` +
        'Re-run with --rename to import them under free names, or edit the file.',
    );
  }
}

function humanReport(outcome: Outcome, named: (server: string) => string): string {
  const { result, plan } = outcome;
  const lines: string[] = [`${FORMAT_LABELS[result.format]} config ${result.source} → ${outcome.configPath}`];
  const pending = outcome.dryRun || outcome.blocked;
  if (plan.added.length) lines.push(`${pending ? 'would add' : 'added'}: ${plan.added.join(', ')}`);
  if (plan.identical.length) lines.push(`identical (already in the registry, skipped): ${plan.identical.join(', ')}`);
  for (const clash of plan.clashes) {
    lines.push(
      clash.renamedTo
        ? `renamed: "${clash.name}" exists with a different configuration; ${pending ? 'would be added' : 'added'} as "${clash.renamedTo}"`
        : `clash: "${clash.name}" exists with a different configuration (rename with --rename or edit the file)`,
    );
  }
  for (const skipped of result.skipped) {
    lines.push(`skipped "${skipped.name}":`, ...skipped.problems.map((p) => `  ${p}`));
  }
  for (const warning of result.warnings) lines.push(`note "${named(warning.server)}": ${warning.message}`);
  if (outcome.moved.length) {
    lines.push(`secrets ${pending ? 'that would move' : 'moved'} to the OS keychain (the registry holds only \${secret:…} references):`);
    for (const m of outcome.moved) lines.push(`  ${m.server}: ${m.where}.${m.key} → \${secret:${m.secret}}${m.reused ? ' (already in the keychain)' : ''}`);
    lines.push(`  ${result.source} still holds ${outcome.moved.length === 1 ? 'this value' : 'these values'} in plain text: remove ${outcome.moved.length === 1 ? 'it' : 'them'} there once you no longer use that app.`);
  }
  if (outcome.notMoved.length) {
    lines.push('secrets left in plain text (each mixes text with a ${…} reference, so Harbor cannot move it: store it with "harbor secret set NAME" and reference it in the registry):');
    for (const s of outcome.notMoved) lines.push(`  ${named(s.server)}: ${s.where}.${s.key}`);
  }
  if (result.inputsReferenced.length) {
    lines.push('inputs referenced (kept as written: Harbor cannot prompt during import; put the values in the registry):');
    for (const input of result.inputsReferenced) {
      const about = input.description ? ` "${input.description}"` : input.defined ? '' : ' (not defined in the file\'s inputs)';
      lines.push(`  \${input:${input.id}}${about} used by ${input.servers.map(named).join(', ')}`);
    }
  }
  if (result.unresolvedVariables.length) {
    lines.push('variables Harbor does not expand (kept as written; replace them with real values):');
    for (const v of result.unresolvedVariables) lines.push(`  ${v.variable} in ${named(v.server)} ${v.where}`);
  }
  if (!plan.added.length && !plan.clashes.length && !result.skipped.length) {
    lines.push(result.servers.length ? 'nothing to do: every server is already in the registry' : 'no servers in this file');
  }
  if (outcome.dryRun) lines.push('dry run: nothing was written');
  return lines.join('\n');
}
