import type { AppInfo } from '../../../preload/contract';
import type { BrowserOpener } from '../auth/opener';
import type { RegistryFile } from '../registry/schema';
import type { Redactor } from '../secrets/redactor';
import type { SecretStore } from '../secrets/store';
import type { RestartPolicyOptions } from '../servers/backoff';
import type { TransportFactory } from '../servers/connection';
import type { SandboxAvailability } from '../sandbox/availability';
import type { LaunchVariables } from '../servers/launch';
import type { CatalogKind } from '../servers/catalog';
import type { DataAccess } from '../open-database';

/** How a front door builds its Host: paths, identity, and the few switches tests and the CLI need. */
export interface HostOptions {
  readonly configPath: string;
  readonly dataDir: string;
  readonly appName: string;
  readonly appVersion: string;
  readonly mode: AppInfo['mode'];
  readonly electronVersion?: string;
  /** What a fresh install's registry holds (the bundled example server). */
  readonly defaultRegistry?: () => RegistryFile;
  /** `${harbor:node}` / `${harbor:resources}` for bundled servers. */
  readonly launchVariables: Omit<LaunchVariables, 'data'>;
  /** server/discover probe timeout before a stdio server is taken for legacy (default 4 s). */
  readonly probeTimeoutMs?: number;
  /** Connect and list timeout (default 30 s). */
  readonly connectTimeoutMs?: number;
  /** The lists a connect fetches (default: all): a one-shot CLI command's, only what it needs. */
  readonly catalogOnConnect?: readonly CatalogKind[];
  /**
   * 'read-only': a command that only reads (harbor info, tools, consent list…): each database is
   * opened read-only, when first needed, and a missing one reads as empty (open-database.ts,
   * openForReading). Default 'read-write'.
   */
  readonly dataAccess?: DataAccess;
  /** false: no reaper (servers may outlive a killed Harbor) — only to measure what it costs (HARBOR_REAPER=0, bench/cli-start.ts). */
  readonly reaper?: boolean;
  readonly restart?: RestartPolicyOptions;
  readonly stopGraces?: { stdinGraceMs: number; termGraceMs: number };
  /** Resolve the login shell's PATH for stdio servers (GUI launches lack it). Default: true except on Windows. */
  readonly useLoginShellPath?: boolean;
  /** Ask the login shell for its PATH again, not trusting the answer remembered in the data folder (`--fresh-env`). */
  readonly freshEnv?: boolean;
  /**
   * CLI `harbor exec` and `harbor chat`: keep the catalog cache (services/lazy-catalogs.ts) and offer
   * servers from it. Only the commands that read it write it, so no other one-shot command pays for it.
   */
  readonly catalogCache?: boolean;
  /**
   * How schemas are checked (json-schema.ts): 'compiled' (default) suits a Host that checks many
   * calls; a one-shot CLI command, which checks one tool's arguments and result once, passes
   * 'interpreted' and never pays Ajv's code generation unless a check fails.
   */
  readonly schemaChecks?: 'compiled' | 'interpreted';
  /** CLI: start every server a chat turn or script could use up front, not offering any from the catalog cache (`--start-all`). */
  readonly startAllServers?: boolean;
  /** Tests may inject transports; the default opens real processes and sockets. */
  readonly openTransport?: TransportFactory;
  /**
   * Whether a person can answer consent requests (the app). Default: true except in the CLI,
   * where a call that needs consent fails with CONSENT_REQUIRED (exit 4) instead of waiting.
   */
  readonly interactiveConsent?: boolean;
  /** How long a consent request waits before it counts as denied (default 5 min). */
  readonly consentTimeoutMs?: number;
  /** Approve launching every configured stdio server for this run (like --yes); tests and scripts. */
  readonly approveLaunches?: boolean;
  /** Where `${secret:NAME}` values come from; the Host owns (disposes) it. Default: the OS keychain, service "Harbor". */
  readonly secrets?: SecretStore;
  /** The one redactor for everything Harbor writes or shows (the CLI shares it to mask its output). */
  readonly redactor?: Redactor;
  /** The sandbox (main/host/sandbox); tests stand for a machine without one by replacing its check. */
  readonly sandbox?: {
    readonly checkAvailability?: () => Promise<SandboxAvailability>;
  };
  /** Tells the person something went wrong and was dealt with (a damaged tasks.db set aside). Default: a line on stderr. */
  readonly warn?: (message: string) => void;
  /** Where the chat looks for a local Ollama when no model is configured (default http://127.0.0.1:11434). */
  readonly ollamaUrl?: string;
  /**
   * Shows OAuth sign-in pages: Electron passes `shell.openExternal`; `login` may pass its own
   * (the CLI prints the URL). Without one, pages are only announced with the `auth.open` event.
   */
  readonly openBrowser?: BrowserOpener;
  /** OAuth for remote servers (main/host/auth). */
  readonly oauth?: {
    /** CIMD: an https URL where Harbor's client metadata document is hosted. Default: none (dynamic registration). */
    readonly clientMetadataUrl?: string;
    /** "explicit" (default): only `login` opens a browser; "automatic": any connect or call may (tests). */
    readonly signIn?: 'explicit' | 'automatic';
    /** How long a sign-in waits for the browser to come back (default 5 minutes). */
    readonly callbackTimeoutMs?: number;
    /** The clock sign-in judges token lifetimes by (tests move it instead of waiting a token out). */
    readonly now?: () => number;
  };
}

/** The registry the first launch writes: the bundled example server, working with no setup. */
export function defaultRegistry(): RegistryFile {
  return {
    mcpServers: {
      notes: {
        command: '${harbor:node}',
        args: ['${harbor:resources}/example-server/notes-server.mjs'],
        env: { HARBOR_NOTES_DIR: '${harbor:data}/notes' },
        trusted: true,
      },
    },
  };
}
