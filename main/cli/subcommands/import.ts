import { resolve } from 'node:path';
import type { CliCommand } from '../command';
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

    const host = await ctx.host();
    const configPath = host.appInfo().configPath;
    // A broken registry throws CONFIG_INVALID when loaded: exit 2, file untouched.
    const { outcome, report: data } = await host.imports.run(file, { rename, dryRun });

    // The report's wording brings the import formats (and zod): loaded only when an import runs.
    const { report } = await import('./import-text');
    report(ctx, { ...outcome, configPath, dryRun }, data);

    if (outcome.blocked) return EXIT.USAGE;
    // Every entry was broken: that is a bad import file, not "nothing to do".
    if (outcome.result.servers.length === 0 && outcome.result.skipped.length > 0) {
      ctx.out.error(`no server in ${file} could be imported: fix the problems listed above and try again.`);
      return EXIT.USAGE;
    }
    return EXIT.OK;
  },
};

