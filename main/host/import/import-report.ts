import { stat } from 'node:fs/promises';
import { describeLaunch, resolveLaunch } from '../servers/launch';
import { FORMAT_LABELS, defaultImportSources, type ImportSource } from './formats';
import type { ServerConfig } from '../registry/schema';
import { finalNames } from './merge-plan';
import type { ImportOutcome } from './run-import';

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
    // Every keychain reference in the file; those to secrets it did not create are only sent once granted.
    secretReferences: outcome.references.map((r) => ({ ...r })),
    inputsReferenced: result.inputsReferenced.map((i) => ({ ...i, servers: i.servers.map(named) })),
    unresolvedVariables: result.unresolvedVariables.map((v) => ({ ...v, server: named(v.server) })),
    warnings: result.warnings.map((w) => ({ ...w, server: named(w.server) })),
    ...(outcome.keychainUnavailable ? { keychainUnavailable: outcome.keychainUnavailable } : {}),
    // Values shown: these are what the person decides on (never secrets: a literal secret moved to the keychain above).
    codeLoadingEnv: outcome.codeLoadingEnv.map((v) => ({ ...v, server: named(v.server) })),
    lookalike: outcome.lookalike.map((l) => ({ ...l })),
  };
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
    // Each clash with what both servers run and what can be done about it, for the person to choose.
    clashes: outcome.plan.clashes.map((c) => ({
      name: c.name,
      ...(c.renamedTo ? { renamedTo: c.renamedTo } : {}),
      ...(c.skipped ? { skipped: true } : {}),
      suggestedName: c.suggestedName,
      ...(c.problem ? { problem: c.problem } : {}),
      existingTarget: targetOf(c.name, c.existing),
      incomingTarget: targetOf(c.name, c.incoming),
    })),
    servers: outcome.plan.added.flatMap((name) => {
      const config = servers[name];
      if (!config) return [];
      return [{ name, transport: 'command' in config ? ('stdio' as const) : ('http' as const), target: targetOf(name, config), enabled: config.enabled !== false }];
    }),
  };
}

/** What a server runs or reaches, as one line; variables stay as written (`${harbor:node}` is not expanded for a preview). */
function targetOf(name: string, config: ServerConfig): string {
  try {
    return describeLaunch(resolveLaunch(name, config, { node: '${harbor:node}', resources: '${harbor:resources}', data: '${harbor:data}' }));
  } catch {
    return 'command' in config ? String(config.command) : String((config as { url?: unknown }).url ?? '');
  }
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
