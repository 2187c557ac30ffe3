import type { ParseArgsOptionsConfig } from 'node:util';
import { APP_NAME, APP_VERSION } from '../app-meta';
import { HarborError } from '../host/errors';
import type { Host } from '../host/host';
import type { Disposable } from '../host/lifecycle';
import type { CliCommand, CliContext, HostNeeds } from './command';
import { OutputClosedError } from './closed-output';
import { CliOutput, EXIT, UsageError, exitCodeFor } from './output';
import { noteSampling } from './sampling-notes';
import { didYouMean } from './suggest';

// Not `import … from 'node:util'`: an ES import of a builtin evaluates all its lazy exports (util's
// brings worker_threads and the diff engine), a few ms of every start that parsing has no use for.
const { parseArgs } = process.getBuiltinModule('node:util');

const GLOBAL_OPTIONS = {
  config: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
  trace: { type: 'boolean' },
  'fresh-env': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies ParseArgsOptionsConfig;

export interface RunOptions {
  readonly argv: readonly string[];
  readonly commands: readonly CliCommand[];
  readonly createHost: (globals: CliContext['globals'], mode?: 'cli' | 'web', needs?: HostNeeds) => Promise<Host>;
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
  readonly signal?: AbortSignal;
  /** Called before a command that is not `longLived` loads (main.ts: keep V8's young generation small). */
  readonly oneShot?: () => void;
}

/** Parses argv, runs one command, disposes the Host, and returns the exit code. Never throws. */
export async function runCli(options: RunOptions): Promise<number> {
  const { argv, commands } = options;
  const wantsJson = argv.includes('--json');
  let out = new CliOutput(wantsJson, options.stdout, options.stderr);

  // Pass 1: find the command (the first positional), with only the global flags known.
  let commandName: string | undefined;
  try {
    const first = parseArgs({ args: [...argv], options: GLOBAL_OPTIONS, allowPositionals: true, strict: false });
    commandName = first.positionals[0];
  } catch (error) {
    out.error(`${(error as Error).message}. Run "harbor --help" for usage.`);
    return EXIT.USAGE;
  }
  const command = commandName === undefined ? undefined : commands.find((c) => c.name === commandName);
  if (commandName !== undefined && !command) {
    out.error(`unknown command "${commandName}".${didYouMean(commandName, commands.map((c) => c.name))} Run "harbor --help" for the list of commands.`);
    return EXIT.USAGE;
  }

  // Pass 2: strict, with the command's own options; flags may stand before or after the command.
  let parsed: ReturnType<typeof parseArgs<{ options: ParseArgsOptionsConfig; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...GLOBAL_OPTIONS, ...(command?.options ?? {}) },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const hint = command ? `Run "harbor ${command.name} --help" for usage.` : 'Run "harbor --help" for usage.';
    const flags = Object.keys({ ...GLOBAL_OPTIONS, ...(command?.options ?? {}) }).map((name) => `--${name}`);
    const unknown = /^Unknown option '(--?[^']*)'/.exec((error as Error).message)?.[1];
    const suggestion = unknown?.startsWith('--') ? didYouMean(unknown, flags) : '';
    out.error(`${cleanParseError((error as Error).message)}.${suggestion} ${hint}`);
    return EXIT.USAGE;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  out = new CliOutput(values.json === true, options.stdout, options.stderr);

  if (values.version === true && !command) {
    out.result({ name: APP_NAME, version: APP_VERSION }, `${APP_NAME} ${APP_VERSION}`);
    return EXIT.OK;
  }
  if (values.help === true || !command) {
    if (command) out.text(commandHelp(command));
    else out.text(globalHelp(commands));
    return command || values.help === true ? EXIT.OK : EXIT.USAGE;
  }

  const args = parsed.positionals.slice(1);
  const range = command.positionals ?? { min: 0, max: 0 };
  if (args.length < range.min || args.length > range.max) {
    out.error(
      `${command.name} takes ${range.min === range.max ? range.min : `${range.min} to ${range.max}`} argument${range.max === 1 ? '' : 's'}, got ${args.length}. Usage: harbor ${command.usage}`,
    );
    return EXIT.USAGE;
  }

  const globals = {
    json: values.json === true,
    trace: values.trace === true,
    ...(values['fresh-env'] === true ? { freshEnv: true } : {}),
    ...(typeof values.config === 'string' ? { config: values.config } : {}),
    ...(typeof values['data-dir'] === 'string' ? { dataDir: values['data-dir'] } : {}),
  };
  // A command may declare a flag a global one also uses (gallery add --version V): then it is the command's.
  const commandOptions = Object.fromEntries(
    Object.entries(parsed.values).filter(([key]) => !(key in GLOBAL_OPTIONS) || Object.hasOwn(command.options ?? {}, key)),
  );
  let host: Host | undefined;
  let trace: Disposable | undefined;
  let samplingNotes: Disposable | undefined;
  const ctx: CliContext = {
    out,
    args,
    options: commandOptions,
    globals,
    signal: options.signal ?? new AbortController().signal,
    createHost: (mode) => options.createHost(globals, mode),
    host: async (needs) => {
      if (!host) {
        host = await options.createHost(globals, 'cli', command.longLived ? needs : { ...needs, oneShot: true });
        // --yes (where a command offers it) approves launching the servers it needs, for this run.
        if (commandOptions.yes === true) host.consent.approveLaunchesForSession('*');
        // --allow-sampling (where a command offers it) approves this run's sampling requests; either way the person is told.
        samplingNotes = noteSampling(out, host, commandOptions['allow-sampling'] === true);
        // --trace: every JSON-RPC message in and out, secrets redacted, on stderr.
        if (globals.trace) trace = host.traffic.onEntry((e) => out.info(`[${e.server}] ${e.direction === 'out' ? '->' : '<-'} ${e.text}`));
      }
      return host;
    },
  };
  if (!command.longLived) options.oneShot?.();
  try {
    return await (await command.load()).run(ctx);
  } catch (error) {
    // The reader of the output went away: the command was stopped on purpose, say nothing.
    if (ctx.signal.reason instanceof OutputClosedError) return EXIT.OK;
    reportError(out, error);
    return exitCodeFor(error);
  } finally {
    await trace?.dispose();
    await samplingNotes?.dispose();
    if (host) {
      try {
        // Ctrl-C (or the reader gone): the servers get short graces, the prompt comes back at once.
        if (ctx.signal.aborted) host.interrupt();
        await host.dispose();
      } catch (error) {
        out.error(`while shutting down: ${(error as Error).message}`);
      }
    }
  }
}

export function reportError(out: CliOutput, error: unknown): void {
  if (error instanceof HarborError || error instanceof UsageError) {
    if (out.json && error instanceof HarborError) out.result({ error: error.toData() });
    out.error(error.message);
    // The server's stderr tail (npm's install errors, a stack trace): what says why it failed.
    const detail = error instanceof HarborError ? error.detail?.trim() : undefined;
    if (detail) out.info(detail.split('\n').map((line) => `    | ${line}`).join('\n'));
    return;
  }
  // Unexpected: one line, no stack trace (set HARBOR_DEBUG=1 to see it).
  out.error(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  if (process.env.HARBOR_DEBUG) console.error(error);
}

function cleanParseError(message: string): string {
  return message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '').replace(/^Unknown option/, 'unknown option');
}

function globalHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.usage.length), 10);
  return [
    `${APP_NAME} ${APP_VERSION} — a host for MCP servers`,
    '',
    'Usage: harbor [--config FILE] [--data-dir DIR] [--json] COMMAND [ARGS]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'Global flags (before or after the command):',
    '  --config FILE     the registry file (default: the app\'s harbor.json)',
    '  --data-dir DIR    where Harbor keeps its data',
    '  --json            machine output on stdout, one JSON value per line',
    '  --trace           print every JSON-RPC message in and out on stderr (secrets redacted)',
    '  --fresh-env       ask the login shell for its PATH again (Harbor remembers it until an rc file changes)',
    '  --help, --version',
    '',
    'Exit codes: 0 ok (also when the reader of the output went away), 1 the server answered with an error (isError, JSON-RPC error),',
    '  2 usage or config error, 3 connection failure, 4 you must act first (an approval, a secret grant, a page to open),',
    '  5 no OS keychain, 130 interrupted.',
  ].join('\n');
}

function commandHelp(command: CliCommand): string {
  const opts = Object.entries(command.options ?? {}).map(
    ([name, o]) => `  --${name}${o.type === 'string' ? ' VALUE' : ''}`,
  );
  return [`Usage: harbor ${command.usage}`, '', command.summary, ...(opts.length ? ['', 'Options:', ...opts] : [])].join('\n');
}
