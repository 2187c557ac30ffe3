/**
 * `harbor` — the headless CLI over the same Host as the app (scripting, CI, conformance).
 * Runs under plain Node; never imports electron.
 */
import { callCommand } from './subcommands/call';
import { chatCommand } from './subcommands/chat';
import { consentCommand } from './subcommands/consent';
import { execCommand } from './subcommands/exec';
import { promptsCommand, resourcesCommand, toolsCommand } from './subcommands/catalog';
import { infoCommand } from './subcommands/info';
import { promptCommand, readCommand } from './subcommands/read';
import { serversCommand } from './subcommands/servers';
import { tasksCommand } from './subcommands/tasks';
import { watchCommand } from './subcommands/watch';
import { runCli } from './run';
import type { CliCommand } from './command';
import { webCommand } from './subcommands/web';
import { realpathSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { importCommand } from './subcommands/import';
import { installCommand } from './subcommands/install';
import { galleryCommand } from './subcommands/gallery';
import { secretCommand } from './subcommands/secret';
import { loginCommand, logoutCommand } from './subcommands/auth';
import { Redactor } from '../host/secrets/redactor';
import { maskingStream } from '../host/secrets/masking-stream';
import { guardOutput } from './closed-output';
import { EXIT } from './output';

export const COMMANDS: readonly CliCommand[] = [
  serversCommand,
  toolsCommand,
  resourcesCommand,
  promptsCommand,
  callCommand,
  execCommand,
  tasksCommand,
  chatCommand,
  readCommand,
  promptCommand,
  watchCommand,
  consentCommand,
  importCommand,
  installCommand,
  galleryCommand,
  secretCommand,
  loginCommand,
  logoutCommand,
  infoCommand,
  webCommand,
];

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A reader that goes away (`| head -1`) stops the command; its servers are stopped as usual.
  const output = guardOutput(process.stdout, process.stderr, (reason) => controller.abort(reason));
  try {
    // One redactor for the Host and the terminal: every secret the Host resolves is masked in all output.
    const redactor = new Redactor();
    const stdout = maskingStream(output.stdout, redactor);
    const stderr = maskingStream(output.stderr, redactor);
    const code = await runCli({
      argv,
      commands: COMMANDS,
      // Loaded on first use: --help, --version and usage errors never load the Host (the SDK, zod, the AI SDK).
      createHost: async (g, mode = 'cli') => (await import('./host-factory')).createCliHost(g, mode, { redactor }),
      stdout,
      stderr,
      signal: controller.signal,
    });
    // Every write done (or failed), so a reader that went away during the last ones is known.
    await Promise.all([stdout, stderr].map((stream) => finished(stream.end())));
    if (output.readerGone) return EXIT.OK;
    if (output.failure) {
      process.stderr.write(`harbor: cannot write the output: ${output.failure.message}\n`);
      return EXIT.CONNECTION;
    }
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// Run when this file is the entry point (`node out/main/cli.js …`); bin/harbor.js imports it instead.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
