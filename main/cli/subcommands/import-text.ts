import { finalNames } from '../../host/import/merge-plan';
import { FORMAT_LABELS } from '../../host/import/formats';
import type { ImportSummary } from '../../host/services/import-service';
import { notAllowedMessage } from '../../host/registry/code-loading-env';
import type { CliContext } from '../command';

/** `harbor import`'s output: the report as JSON, or in words for a person. */
export interface Outcome extends ImportSummary {
  readonly configPath: string;
  readonly dryRun: boolean;
  readonly lookalikeAllowed: boolean;
}

export function report(ctx: CliContext, outcome: Outcome, data: unknown): void {
  const { plan } = outcome;
  ctx.out.result(data, humanReport(outcome, finalNames(plan)));
  if (outcome.blocked) {
    const names = plan.clashes.filter((c) => !c.renamedTo).map((c) => c.name);
    ctx.out.error(
      `${names.length} name clash${names.length === 1 ? '' : 'es'} (${names.join(', ')}): nothing was written. ` +
        'Re-run with --rename to import them under free names, or edit the file.',
    );
  }
  if (!outcome.dryRun && !outcome.blocked) {
    for (const [server, refused] of refusedByServer(outcome)) ctx.out.error(notAllowedMessage(server, refused, 'Nothing was imported.'));
    if (outcome.lookalike.length && !outcome.lookalikeAllowed) {
      ctx.out.error(`warning: ${outcome.lookalike.map((l) => l.problem).join('; ')}. Nothing was imported. If you are sure, confirm it: --allow-lookalike.`);
    }
  }
}

/** The variables that load code the person did not allow, by server: any at all, and nothing is written (exit 4). */
export function refusedByServer(outcome: Pick<ImportSummary, 'codeLoadingEnv'>): Map<string, Array<readonly [string, string]>> {
  const by = new Map<string, Array<readonly [string, string]>>();
  for (const v of outcome.codeLoadingEnv.filter((e) => !e.allowed)) by.set(v.server, [...(by.get(v.server) ?? []), [v.name, v.value] as const]);
  return by;
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
  for (const l of outcome.lookalike) lines.push(`warning: ${l.problem}${outcome.lookalikeAllowed ? ' (confirmed with --allow-lookalike)' : '; imported only with --allow-lookalike'}`);
  if (outcome.codeLoadingEnv.length) {
    lines.push('variables that make the runtime load or fetch code:');
    for (const v of outcome.codeLoadingEnv) lines.push(`  ${named(v.server)}: ${v.name}=${v.value}${v.allowed ? ' (allowed with --allow-env)' : ''}`);
    const refused = outcome.codeLoadingEnv.filter((v) => !v.allowed).map((v) => v.name);
    if (refused.length) lines.push(`warning: ${[...new Set(refused)].join(', ')} load or fetch code you have not seen: imported only with --allow-env ${[...new Set(refused)].join(',')}`);
  }
  if (outcome.moved.length) {
    lines.push(`secrets ${pending ? 'that would move' : 'moved'} to the OS keychain (the registry holds only \${secret:…} references):`);
    for (const m of outcome.moved) lines.push(`  ${m.server}: ${m.where}.${m.key} → \${secret:${m.secret}}${m.reused ? ' (already in the keychain)' : ''}`);
    lines.push(`  ${result.source} still holds ${outcome.moved.length === 1 ? 'this value' : 'these values'} in plain text: remove ${outcome.moved.length === 1 ? 'it' : 'them'} there once you no longer use that app.`);
  }
  if (outcome.keychainUnavailable && outcome.moved.length) {
    lines.push(`no OS keychain is available here: importing for real would stop before writing anything, because ${outcome.moved.length === 1 ? 'this value needs' : 'these values need'} it. ${outcome.keychainUnavailable}`);
  }
  if (outcome.notMoved.length) {
    lines.push('secrets left in plain text (each mixes text with a ${…} reference, so Harbor cannot move it: store it with "harbor secret set NAME" and reference it in the registry):');
    for (const s of outcome.notMoved) lines.push(`  ${named(s.server)}: ${s.where}.${s.key}`);
  }
  const foreign = outcome.references.filter((r) => !r.createdByFile);
  if (foreign.length) {
    lines.push('references to keychain secrets this file did not create (Harbor sends a secret only to the servers it belongs to; "harbor secret grant SECRET SERVER" gives it):');
    for (const r of foreign) lines.push(`  ${r.server}: ${r.where} → \${secret:${r.secret}}`);
  }
  const filledInputs = result.inputsReferenced.filter((input) => input.filled);
  if (filledInputs.length) {
    lines.push(`inputs ${pending ? 'that would be ' : ''}filled in:`);
    for (const input of filledInputs) {
      lines.push(`  \${input:${input.id}} ${input.filled === 'default' ? 'its default' : 'the value given'}${input.password ? ' (a password: to the OS keychain)' : ''}, used by ${input.servers.map(named).join(', ')}`);
    }
  }
  const openInputs = result.inputsReferenced.filter((input) => !input.filled);
  if (openInputs.length) {
    lines.push('inputs without a value (kept as written: the servers using them will not start until the value is in the registry; import again with --set ID=VALUE, or run on a terminal to be asked):');
    for (const input of openInputs) {
      const about = input.description ? ` "${input.description}"` : input.defined ? '' : ' (not defined in the file\'s inputs)';
      lines.push(`  \${input:${input.id}}${about} used by ${input.servers.map(named).join(', ')}`);
    }
  }
  if (result.unresolvedVariables.length) {
    lines.push('variables Harbor does not expand (kept as written; replace them with real values — another app\'s placeholders keep a server from starting):');
    for (const v of result.unresolvedVariables) lines.push(`  ${v.variable} in ${named(v.server)} ${v.where}`);
  }
  if (!plan.added.length && !plan.clashes.length && !result.skipped.length) {
    lines.push(result.servers.length ? 'nothing to do: every server is already in the registry' : 'no servers in this file');
  }
  if (outcome.dryRun) lines.push('dry run: nothing was written');
  return lines.join('\n');
}
