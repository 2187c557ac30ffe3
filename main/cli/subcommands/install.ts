import { resolve } from 'node:path';
import type { BundleReviewData, InstallOutcomeData, PlanValue } from '../../../preload/contract';
import type { CliCommandCode, CliContext } from '../command';
import { EXIT } from '../output';
import { parseAllowEnv, parseSetOptions } from '../set-option';

/**
 * `harbor install FILE.mcpb [--name NAME] [--set KEY=VALUE]… [--yes] [--dry-run]`: reads and
 * checks an MCP bundle, shows what it is and exactly what it will run, and installs it. --yes also
 * approves launching the command shown; without it, the first start asks (or exits 4).
 */
export const installCommand: CliCommandCode = {
  async run(ctx) {
    const values = parseSetOptions(ctx.options.set);
    const allowEnv = parseAllowEnv(ctx.options['allow-env']);
    const host = await ctx.host();
    host.registry.requireValid();
    const review = await host.bundles.openFile(resolve(ctx.args[0]!));
    const outcome = await host.bundles.install(review.id, {
      values,
      ...(typeof ctx.options.name === 'string' ? { name: ctx.options.name } : {}),
      dryRun: ctx.options['dry-run'] === true,
      approveLaunch: ctx.options.yes === true,
      ...(allowEnv ? { allowEnv } : {}),
      allowLookalike: ctx.options['allow-lookalike'] === true,
    });
    reportInstall(ctx, outcome, { review, approved: ctx.options.yes === true });
    return EXIT.OK;
  },
};

/** The review (bundles), the plan and the outcome: one JSON line, or the human report. */
export function reportInstall(ctx: CliContext, outcome: InstallOutcomeData, extra: { review?: BundleReviewData; approved: boolean; source?: string }): void {
  const { plan } = outcome;
  const lines: string[] = [];
  const review = extra.review;
  if (review) {
    lines.push(`Bundle     ${review.displayName ?? review.name} ${review.version} (${review.name}) by ${review.author.name}${review.author.email ? ` <${review.author.email}>` : ''}`);
    lines.push(`           ${review.description}`);
    lines.push(`Signature  ${signatureLine(review)}`);
    lines.push(`Tools      ${review.tools.map((t) => t.name).join(', ') || '(none declared)'}${review.toolsGenerated ? ' (and more it makes at run time)' : ''}`);
    lines.push(`Prompts    ${review.prompts.map((p) => p.name).join(', ') || '(none declared)'}${review.promptsGenerated ? ' (and more it makes at run time)' : ''}`);
  }
  if (extra.source) lines.push(`From       ${extra.source}`);
  const punycode = plan.host && plan.host.ascii !== plan.host.unicode ? `  (host ${plan.host.unicode} is ${plan.host.ascii} in punycode)` : '';
  lines.push(`${plan.transport === 'http' ? 'URL      ' : 'Command  '}  ${plan.target}${punycode}`);
  for (const problem of plan.lookalike ?? []) lines.push(`warning: ${problem}; installed only with --allow-lookalike`);
  lines.push(...valueLines('Env        ', plan.env ?? plan.envNames.map((name) => ({ name, value: '' }))));
  lines.push(...valueLines('Headers    ', plan.headers ?? plan.headerNames.map((name) => ({ name, value: '' }))));
  const loading = plan.codeLoadingEnv ?? [];
  if (loading.length) {
    lines.push(
      `warning: ${loading.join(', ')} ${loading.length === 1 ? 'makes' : 'make'} the runtime load or fetch code (values above); installed only with --allow-env ${loading.join(',')}`,
    );
  }
  for (const s of plan.secrets) lines.push(`Secret     ${s.key} → OS keychain as "${s.secret}" (only this server gets it)`);
  if (plan.sandbox) lines.push(`Sandbox    ${sandboxWord(plan.sandbox)}: ${plan.sandbox.allowed.join('; ')}${plan.sandbox.note ? `\n           ${plan.sandbox.note}` : ''}`);
  if (!outcome.installed) lines.push('dry run: nothing was written');
  else {
    lines.push(plan.updatingFrom !== undefined ? `Updated "${plan.server}" (from ${plan.updatingFrom || 'an earlier version'}), keeping its settings.` : `Installed "${plan.server}".`);
    lines.push(
      extra.approved
        ? 'Launch     approved (--yes): the command above runs when the server starts.'
        : `Launch     not approved yet: run "harbor consent grant-launch ${plan.server}", or pass --yes to the command that starts it.`,
    );
  }
  ctx.out.result({ ...(review ? { review } : {}), plan, installed: outcome.installed, ...(outcome.summary ? { state: outcome.summary.state.kind } : {}) }, lines.join('\n'));
}

/** One line per variable or header with the value it gets; a secret by its keychain name, never a value. */
function valueLines(label: string, values: readonly PlanValue[]): string[] {
  return values.map((v, i) => `${i === 0 ? label : ' '.repeat(label.length)}${v.name}=${v.secret !== undefined ? `(secret, from the OS keychain as "${v.secret}")` : v.value}`);
}

/** Whether the server runs in the sandbox here: yes, no, or asked for but unable to run (the server would not start). */
function sandboxWord(sandbox: NonNullable<InstallOutcomeData['plan']['sandbox']>): string {
  if (sandbox.enforced) return 'yes';
  return sandbox.requested ? 'yes, but the sandbox cannot run here' : 'no';
}

function signatureLine(review: BundleReviewData): string {
  const s = review.signature;
  switch (s.status) {
    case 'signed':
      return `signed by ${s.publisher ?? 'unknown'} (issuer ${s.issuer ?? 'unknown'})`;
    case 'self-signed':
      return `self-signed by ${s.publisher ?? 'unknown'}: nobody else vouches for it`;
    case 'unverified':
      return 'a signature that does not check out (changed after signing, or an untrusted certificate)';
    default:
      return 'unsigned: nobody vouches for this file';
  }
}
