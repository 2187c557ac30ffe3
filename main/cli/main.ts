/**
 * `harbor` — the headless CLI over the same Host as the app (scripting, CI, conformance).
 * Runs under plain Node; never imports electron.
 */
import { finished } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { Redactor } from '../host/secrets/redactor';
import { maskingStream } from '../host/secrets/masking-stream';
import { guardOutput } from './closed-output';
import { COMMANDS } from './commands';
import { EXIT } from './output';
import { runCli } from './run';

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
      createHost: async (g, mode = 'cli', needs) =>
        (await import('./host-factory')).createCliHost(g, mode, { redactor, ...(needs?.catalog ? { catalogOnConnect: needs.catalog } : {}), ...(needs?.readOnly ? { dataAccess: 'read-only' } : {}), ...(needs?.startAll ? { startAllServers: true } : {}), ...(needs?.catalogCache ? { catalogCache: true } : {}), ...(needs?.oneShot ? { schemaChecks: 'interpreted' } : {}) }),
      stdout,
      stderr,
      signal: controller.signal,
      oneShot: keepYoungGenerationSmall,
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

/**
 * Peak memory of a one-shot command (#32 goal 2): V8 doubles its young generation whenever a
 * scavenge finds most of it alive — as loading the Host's modules does, again and again — and
 * keeps the grown space committed until the exit: about 11 MB of a `harbor tools` (106 → 95 MB
 * peak RSS, the same CPU, measured with server-everything). Not growing it is V8's own flag,
 * read at each growth; a long-lived command (web, chat…) keeps the default.
 */
function keepYoungGenerationSmall(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}

// Run when this file is the entry point (`node out/main/cli.js …`); bin/harbor.js imports it instead.
// node:fs through getBuiltinModule: an ES import of it evaluates all its lazy exports (fs.promises,
// its streams, readline), a few ms of every start for one realpath.
const { realpathSync } = process.getBuiltinModule('node:fs');
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
