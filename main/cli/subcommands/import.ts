import { resolve } from 'node:path';
import type { CliCommandCode, CliContext } from '../command';
import { EXIT, UsageError } from '../output';
import { promptLine } from '../prompt';
import { parseAllowEnv, parseSingleSetOptions } from '../set-option';

/**
 * `harbor import FILE [--rename] [--dry-run] [--set ID=VALUE]…`: merges the servers of a Claude
 * Desktop, VS Code or Cursor configuration into Harbor's registry. Never half-applied: when a name
 * clashes and --rename is not given, nothing is written and the command exits 2. VS Code inputs
 * get their `default`, a `--set` value, or — on a terminal — a value typed at a prompt (password
 * inputs unechoed); a password's value goes to the keychain, never into the file.
 */
export const importCommand: CliCommandCode = {
  async run(ctx) {
    const file = resolve(ctx.args[0]!);
    const rename = ctx.options.rename === true;
    const dryRun = ctx.options['dry-run'] === true;
    let inputs = parseSingleSetOptions(ctx.options.set, INPUT_FORM);
    const allowEnv = parseAllowEnv(ctx.options['allow-env']);
    const allowLookalike = ctx.options['allow-lookalike'] === true;
    const only = parseOnly(ctx.options.only);

    const host = await ctx.host();
    const configPath = host.appInfo().configPath;
    // On a terminal, ask for the inputs still without a value (learned from a preview, which writes nothing).
    if (!dryRun && process.stdin.isTTY) {
      const { outcome } = await host.imports.run(file, { rename, dryRun: true, inputs, ...(only ? { only } : {}) });
      inputs = { ...inputs, ...(await askForInputs(ctx, outcome.result.inputsReferenced)) };
    }
    // A broken registry throws CONFIG_INVALID when loaded: exit 2, file untouched.
    const { outcome, report: data } = await host.imports.run(file, { rename, dryRun, inputs, allowLookalike, ...(allowEnv ? { allowEnv } : {}), ...(only ? { only } : {}) });

    // The report's wording brings the import formats (and zod): loaded only when an import runs.
    const { report } = await import('./import-text');
    report(ctx, { ...outcome, configPath, dryRun, lookalikeAllowed: allowLookalike }, data);

    if (outcome.blocked) return EXIT.USAGE;
    // A variable that loads code, not allowed by name: nothing was written, the person's decision is missing.
    if (!dryRun && (outcome.codeLoadingEnv.some((v) => !v.allowed) || (outcome.lookalike.length > 0 && !allowLookalike))) return EXIT.CONSENT;
    // Every entry was broken: that is a bad import file, not "nothing to do".
    if (outcome.result.servers.length === 0 && outcome.result.skipped.length > 0) {
      ctx.out.error(`no server in ${file} could be imported: fix the problems listed above and try again.`);
      return EXIT.USAGE;
    }
    return EXIT.OK;
  },
};

/** `--only a,b --only c`: server names as the file spells them. */
function parseOnly(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const names = (Array.isArray(value) ? value : [value]).flatMap((item) => String(item).split(',')).map((name) => name.trim());
  if (names.some((name) => name === '')) throw new UsageError('--only takes server names as the file spells them, comma-separated. Example: --only memory,time');
  return names;
}

/** A VS Code input takes one value: everything after the first "=". */
const INPUT_FORM = { form: 'ID=VALUE (an input id of the file, "=", its value)', example: 'root-dir=/home/me/projects' };

interface InputToAsk {
  readonly id: string;
  readonly description?: string;
  readonly password?: boolean;
  readonly defined: boolean;
  readonly filled?: 'default' | 'given';
}

/** Asks on the terminal for each input still without a value; an empty answer leaves it unfilled. */
async function askForInputs(ctx: CliContext, inputs: readonly InputToAsk[]): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  const open = inputs.filter((input) => input.filled === undefined && input.defined);
  if (open.length) ctx.out.info(`${open.length === 1 ? 'One input needs' : `${open.length} inputs need`} a value (Enter leaves it unfilled: the servers using it will not start until it is set):`);
  for (const input of open) {
    const about = input.description ? ` — ${input.description}` : '';
    const value = await promptLine(`  \${input:${input.id}}${about}${input.password ? ' (not shown; goes to the OS keychain)' : ''}: `, {
      signal: ctx.signal,
      hidden: input.password === true,
      undone: 'nothing was imported',
    });
    if (value !== '') answers[input.id] = value;
  }
  return answers;
}
