import type { ParseArgsOptionsConfig } from 'node:util';
import type { Host } from '../host/host';
import type { CatalogKind } from '../host/servers/catalog';
import type { CliOutput } from './output';

/** What a command needs of its Host: the catalog lists each connect fetches (default: all). */
export interface HostNeeds {
  readonly catalog?: readonly CatalogKind[];
  /** The command only reads the data folder: databases opened read-only, when needed (HostOptions.dataAccess). */
  readonly readOnly?: boolean;
  /** `harbor exec`/`chat --start-all`: every server starts up front, none offered from the catalog cache (HostOptions.startAllServers). */
  readonly startAll?: boolean;
  /** `harbor exec`/`chat`: they read the catalog cache, so they keep it (HostOptions.catalogCache). */
  readonly catalogCache?: boolean;
  /** Set by the runner for a command that is not `longLived`: each schema is checked once or twice (HostOptions.schemaChecks 'interpreted'). */
  readonly oneShot?: boolean;
}

export interface CliContext {
  readonly out: CliOutput;
  /** Positional arguments after the command name. */
  readonly args: readonly string[];
  /** The command's own options as parsed (global flags excluded). */
  readonly options: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly globals: { readonly config?: string; readonly dataDir?: string; readonly json: boolean; readonly trace?: boolean; readonly freshEnv?: boolean };
  /**
   * Builds the Host lazily (commands like --help need none); the runner disposes it. `needs`, on
   * the first call: the catalog lists a connect fetches (default all; `call` needs only the tools).
   */
  host(needs?: HostNeeds): Promise<Host>;
  /** A new Host the command owns and disposes itself (browser mode runs one with mode 'web'). */
  createHost(mode: 'cli' | 'web'): Promise<Host>;
  /** Aborted on SIGINT/SIGTERM: commands stop what they do and clean up. */
  readonly signal: AbortSignal;
}

/**
 * A command as help, suggestions and argument parsing know it. Its code is loaded only when it runs
 * (a chunk of its own in the built CLI), so `harbor --version`, `--help` and usage errors load none.
 */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  /** e.g. "call SERVER TOOL [--args JSON]" */
  readonly usage: string;
  readonly options?: ParseArgsOptionsConfig;
  /** Minimum and maximum number of positionals. */
  readonly positionals?: { min: number; max: number };
  /** Runs until stopped (web, chat, watch, exec), not just until its answer is out: V8's default heap sizing. */
  readonly longLived?: true;
  load(): Promise<CliCommandCode>;
}

/** What a command does when it runs, with its arguments already checked against its CliCommand. */
export interface CliCommandCode {
  run(ctx: CliContext): Promise<number>;
}
