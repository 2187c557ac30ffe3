/**
 * `harbor` — the headless CLI over the same Host as the app (scripting, CI, conformance).
 * Runs under plain Node; never imports electron.
 */
import { callCommand } from './subcommands/call';
import { chatCommand } from './subcommands/chat';
import { consentCommand } from './subcommands/consent';
import { promptsCommand, resourcesCommand, toolsCommand } from './subcommands/catalog';
import { infoCommand } from './subcommands/info';
import { promptCommand, readCommand } from './subcommands/read';
import { serversCommand } from './subcommands/servers';
import { watchCommand } from './subcommands/watch';
import { createCliHost } from './host-factory';
import { runCli } from './run';
import type { CliCommand } from './command';
import { webCommand } from './subcommands/web';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { importCommand } from './subcommands/import';
import { installCommand } from './subcommands/install';
import { galleryCommand } from './subcommands/gallery';
import { secretCommand } from './subcommands/secret';
import { loginCommand, logoutCommand } from './subcommands/auth';
import { Redactor } from '../host/secrets/redactor';
import { maskingStream } from '../host/secrets/masking-stream';

export const COMMANDS: readonly CliCommand[] = [
  serversCommand,
  toolsCommand,
  resourcesCommand,
  promptsCommand,
  callCommand,
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
  try {
    // One redactor for the Host and the terminal: every secret the Host resolves is masked in all output.
    const redactor = new Redactor();
    return await runCli({
      argv,
      commands: COMMANDS,
      createHost: (g, mode = 'cli') => createCliHost(g, mode, { redactor }),
      stdout: maskingStream(process.stdout, redactor),
      stderr: maskingStream(process.stderr, redactor),
      signal: controller.signal,
    });
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
