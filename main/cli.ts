/**
 * `harbor` — the headless CLI over the same Host as the app (scripting, CI, conformance).
 * Runs under plain Node; never imports electron.
 */
import { infoCommand } from './cli/commands/info';
import { createCliHost } from './cli/host-factory';
import { runCli } from './cli/run';
import type { CliCommand } from './cli/command';
import { webCommand } from './web';

export const COMMANDS: readonly CliCommand[] = [infoCommand, webCommand];

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await runCli({ argv, commands: COMMANDS, createHost: (g) => createCliHost(g), signal: controller.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
