/**
 * Runs stdio servers inside @anthropic-ai/sandbox-runtime: bubblewrap (with a network namespace
 * of its own and a seccomp filter) on Linux, Seatbelt on macOS; Windows has none Harbor can use.
 *
 * `wrap` turns a server's command line into the sandboxed one Harbor then spawns and supervises
 * like any other (process group, stop ladder, orphan sweep, stderr): `/bin/bash -c "<bwrap …>"`.
 * Inside, TMPDIR is the server's own temporary folder, made for this launch and removed after it.
 * Where the sandbox cannot run, `wrap` refuses (SANDBOX_UNAVAILABLE) — a server that asks for
 * the sandbox never runs without it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { SandboxRules } from '../registry/sandbox-config';
import { mechanismFor, missingDependencies, probeFailed, sandboxUnavailableError, unsupportedPlatform, type SandboxAvailability } from './availability';
import { ownDataFolders, type OwnFolderClaims } from './own-folders';
import { buildPolicy, type PolicyContext, type SandboxPolicy } from './policy';
import { refusalFromStderr, refusalFromViolation, type RefusalContext, type SandboxRefusal } from './refusals';
import { loadSandboxRuntime, type SandboxManagerApi } from './load-runtime';
import { leaseSharedRuntime, type SharedRuntimeLease } from './shared-runtime';
import { runProbe } from './probe';
import { shellCommand } from './shell-command';
import { splitLaunchEnv } from './launch-env';

export interface SandboxRuntimeOptions {
  /** Harbor's data folder, hidden from every sandboxed server. */
  readonly dataDir: string;
  /** The registry file, hidden too. */
  readonly configPath?: string;
  /** The app's own folder when it is not the data folder, hidden too. */
  readonly appDir?: string;
  readonly platform?: NodeJS.Platform;
  readonly home?: string;
  /** Where gnome-keyring keeps its files when it was moved (XDG_DATA_HOME). */
  readonly xdgDataHome?: string;
  /** Where servers' temporary folders are made (default: the OS's). */
  readonly tempRoot?: string;
  /**
   * What Harbor's records say a server owns inside the data folder (its installed bundle, the
   * example server's notes): the only parts of it the server may read. Absent: nothing.
   */
  readonly ownership?: (server: string) => OwnFolderClaims;
  /** What this machine can do; tests replace the real check to stand for a machine without a sandbox. */
  readonly checkAvailability?: () => Promise<SandboxAvailability>;
}

export interface SandboxLaunchRequest {
  readonly server: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly rules: SandboxRules;
  /** Each refusal, as it is seen. */
  readonly onRefusal: (refusal: SandboxRefusal) => void;
}

/** A sandboxed command line, ready to spawn; dispose after the process has exited. */
export interface SandboxedLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** The environment to spawn it with. */
  readonly env: Readonly<Record<string, string>>;
  /** The server's own temporary folder. */
  readonly tempDir: string;
  /** Feed every stderr line of the server: refused reads and writes show there. */
  readonly onStderrLine: (line: string) => void;
  dispose(): Promise<void>;
}

/** Refusals reported for one launch: a server stuck in a loop of refused writes must not flood the log. */
const MAX_REFUSALS_PER_LAUNCH = 50;

/** How long the one-time test command may take (bubblewrap starts in milliseconds). */

export class SandboxRuntime implements Disposable {
  private readonly platform: NodeJS.Platform;
  private readonly home: string;
  private lease: Promise<SharedRuntimeLease> | undefined;
  private checked: Promise<SandboxAvailability> | undefined;
  private disposed = false;
  private readonly stopping = new AbortController();

  constructor(private readonly options: SandboxRuntimeOptions) {
    trackDisposable(this);
    this.platform = options.platform ?? process.platform;
    this.home = options.home ?? homedir();
  }

  /** Whether servers can be sandboxed here; checked once (a failure is checked again next time). */
  availability(): Promise<SandboxAvailability> {
    this.checked ??= (this.options.checkAvailability ?? (() => this.checkMachine()))().then((result) => {
      if (!result.available) this.checked = undefined;
      return result;
    });
    return this.checked;
  }

  /** What the platform offers, without starting anything (for the UI). */
  platformSupport(): SandboxAvailability | undefined {
    return unsupportedPlatform(this.platform);
  }

  async wrap(request: SandboxLaunchRequest): Promise<SandboxedLaunch> {
    if (this.disposed) throw new HarborError('CANCELLED', 'Harbor is shutting down.');
    const availability = await this.availability();
    if (!availability.available) throw sandboxUnavailableError(request.server, availability);
    const lease = await this.sharedRuntime();
    const manager = lease.manager;
    // Before anything is made: a shell function in the environment is refused.
    const launchEnv = splitLaunchEnv(request.server, request.env, process.env.PATH);
    const own = await ownDataFolders(this.options.dataDir, this.options.ownership?.(request.server) ?? {});
    const tempDir = await mkdtemp(join(this.options.tempRoot ?? tmpdir(), 'harbor-sandbox-'));
    const policy = buildPolicy(request.rules, this.policyContext(tempDir, own));
    const refusalContext: RefusalContext = { home: this.home, alwaysHidden: policy.alwaysHidden, personHidden: policy.personHidden, allowWrite: policy.allowWrite };
    // The id binds the server's connections to its allow list: unguessable, never derived from the command.
    const commandId = randomBytes(16).toString('base64url');
    const cleanups: (() => void | Promise<void>)[] = [() => rm(tempDir, { recursive: true, force: true })];
    const cleanUp = async (): Promise<void> => {
      // Each cleanup runs even when one before it fails; leftovers are private temp files the next start removes.
      for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
    };
    try {
      if (policy.allowedDomains.length > 0) {
        registerDomains(manager, request.server, commandId, policy.allowedDomains);
        cleanups.push(() => manager.unregisterCommandNetworkLists(commandId));
      }
      // Once per thing refused, or per change that would allow it (npm writing a thousand files
      // into one folder is one refusal), and at most MAX_REFUSALS_PER_LAUNCH different ones.
      const seen = new Set<string>();
      const report = (refusal: SandboxRefusal | undefined): void => {
        if (!refusal || seen.size >= MAX_REFUSALS_PER_LAUNCH) return;
        const key = `${refusal.kind}\0${refusal.change ? JSON.stringify(refusal.change) : refusal.target}`;
        if (seen.has(key)) return;
        seen.add(key);
        request.onRefusal(refusal);
      };
      cleanups.push(lease.listen(commandId, (line) => report(refusalFromViolation(line, refusalContext))));
      const inner = shellCommand(request.command, request.args, ownFolders(tempDir), launchEnv.carried);
      const wrapped = await manager.wrapWithSandboxArgv(inner, undefined, { filesystem: runtimeFilesystem(policy) }, undefined, request.cwd, { commandId, commandText: commandId });
      const [command, ...args] = withoutStartupFiles(wrapped.argv);
      // A shell level above 0 keeps the shells inside from reading ~/.bashrc (see withoutStartupFiles).
      // The shell and bubblewrap run outside the sandbox: they get nothing that makes them run code (launch-env.ts).
      return { command: command!, args, env: { ...launchEnv.outer, SHLVL: '1' }, tempDir, onStderrLine: (line) => report(refusalFromStderr(line, refusalContext)), dispose: cleanUp };
    } catch (error) {
      await cleanUp();
      if (error instanceof HarborError) throw error;
      throw new HarborError('SPAWN_FAILED', `Harbor could not prepare the sandbox for "${request.server}": ${error instanceof Error ? error.message : String(error)}.`, undefined, { cause: error });
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    // A probe still running is killed: its answer is no longer waited for.
    this.stopping.abort();
    const lease = this.lease;
    this.lease = undefined;
    await lease?.then((l) => l.release(), () => undefined);
  }

  private sharedRuntime(): Promise<SharedRuntimeLease> {
    this.lease ??= leaseSharedRuntime().catch((error: unknown) => {
      this.lease = undefined;
      throw error;
    });
    return this.lease;
  }

  private policyContext(tempDir: string, own: readonly string[]): PolicyContext {
    return {
      home: this.home,
      dataDir: this.options.dataDir,
      ...(this.options.appDir ? { appDir: this.options.appDir } : {}),
      ...(this.options.configPath ? { configPath: this.options.configPath } : {}),
      ...(this.options.xdgDataHome ? { xdgDataHome: this.options.xdgDataHome } : {}),
      tempDir,
      ownFolders: own,
    };
  }

  /** The platform, the runtime's dependencies, then one real sandboxed command. */
  private async checkMachine(): Promise<SandboxAvailability> {
    const unsupported = unsupportedPlatform(this.platform);
    if (unsupported) return unsupported;
    const { SandboxManager } = await loadSandboxRuntime();
    const dependencies = SandboxManager.checkDependencies();
    if (dependencies.errors.length > 0) return missingDependencies(dependencies.errors, this.platform);
    try {
      await this.sharedRuntime();
    } catch (error) {
      return probeFailed(error instanceof Error ? error.message : String(error), this.platform);
    }
    const failure = await runProbe(SandboxManager, this.stopping.signal);
    return failure === undefined ? { available: true, mechanism: mechanismFor(this.platform)! } : probeFailed(failure, this.platform);
  }
}

/**
 * Where a sandboxed server's temporary files and caches go: its own folder, the only one it may
 * write without rules. npx and uvx download their package into it (so a sandboxed server cannot
 * poison the caches other programs use).
 */
function ownFolders(tempDir: string): Record<string, string> {
  return {
    TMPDIR: tempDir,
    XDG_CACHE_HOME: join(tempDir, 'cache'),
    npm_config_cache: join(tempDir, 'npm-cache'),
    UV_CACHE_DIR: join(tempDir, 'uv-cache'),
  };
}

/**
 * Node's stdio pipes are sockets, and bash reads ~/.bashrc when its stdin is a socket and SHLVL
 * is unset (it takes itself for a shell started by sshd): the shell before the sandbox must not
 * run the person's startup files, with the person's rights, before every server; the shells
 * inside, which get SHLVL, do not read them either.
 */
function withoutStartupFiles(argv: readonly string[]): string[] {
  const [shell, ...rest] = argv;
  if (shell === undefined || !/(?:^|\/)bash$/.test(shell)) return [...argv];
  return [shell, '--norc', '--noprofile', ...rest];
}

/** Paths as names, never as patterns: a `[` or `*` in a folder's name must not widen or void a rule. */
function runtimeFilesystem(policy: SandboxPolicy) {
  const literal = (paths: readonly string[]) => paths.map((path) => ({ path, literal: true as const }));
  return {
    allowWrite: literal(policy.allowWrite),
    denyWrite: literal(policy.denyWrite),
    denyRead: literal(policy.denyRead),
    allowRead: literal(policy.allowRead),
  };
}

function registerDomains(manager: SandboxManagerApi, server: string, commandId: string, domains: readonly string[]): void {
  try {
    manager.registerCommandNetworkLists(commandId, { allowedDomains: [...domains] });
  } catch (error) {
    throw new HarborError('CONFIG_INVALID', `Server "${server}": the sandbox's "allowedDomains" has an entry the sandbox cannot use: ${error instanceof Error ? error.message : String(error)}.`);
  }
}
