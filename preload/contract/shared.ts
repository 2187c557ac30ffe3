/** Shapes more than one view shares: a server's connection state and summary, the app's own info. */
import { z } from 'zod';
import { ErrorCode } from './errors';

/** Connection state: one union drives the Host, the CLI and the UI badges. */
export const ConnectionState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stopped') }),
  z.object({ kind: z.literal('starting') }),
  z.object({
    kind: z.literal('ready'),
    /** Restarted by Harbor after the process before it died: why, how it ended ("exited with code 3"), its last stderr lines. */
    recovered: z.object({ at: z.number(), message: z.string(), exit: z.string().optional(), stderrTail: z.string().optional() }).optional(),
  }),
  z.object({
    kind: z.literal('restarting'),
    attempt: z.number().int(),
    maxAttempts: z.number().int(),
    nextAt: z.number(),
    /** Why it went away (the crash or the lost connection), and its last stderr lines. */
    message: z.string().optional(),
    stderrTail: z.string().optional(),
  }),
  z.object({
    kind: z.literal('error'),
    code: ErrorCode,
    message: z.string(),
    stderrTail: z.string(),
  }),
]);
export type ConnectionState = z.infer<typeof ConnectionState>;

export const Era = z.enum(['modern', 'legacy']);
export type Era = z.infer<typeof Era>;

/**
 * Lists a server said had changed and that could not be fetched again: the last good ones are
 * still shown (and offered), marked stale, while Harbor retries.
 */
export const StaleListsData = z.object({
  lists: z.array(z.enum(['tools', 'resources', 'resourceTemplates', 'prompts'])),
  /** The server's (or the connection's) own message. */
  message: z.string(),
  /** When the lists still shown were fetched (ms since the epoch). */
  since: z.number(),
  failedAt: z.number(),
  nextRetryAt: z.number(),
});
export type StaleListsData = z.infer<typeof StaleListsData>;

/**
 * A remote server's sign-in as Harbor holds it: signed in (as whom when the authorization server
 * said, until when), expired (nothing can renew it: sign in again), refused (the authorization
 * server's own words), or none.
 */
export const SignInStatus = z.object({
  state: z.enum(['signed-in', 'expired', 'refused', 'none']),
  /** Whom the sign-in is for, when the authorization server said (an id_token's email, name or sub). */
  subject: z.string().optional(),
  /** When the access token expires (ms since the epoch); a refresh token may renew it by itself. */
  expiresAt: z.number().optional(),
  /** Expired or refused: what happened and what to do. */
  message: z.string().optional(),
});
export type SignInStatus = z.infer<typeof SignInStatus>;

export const ServerSummary = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  enabled: z.boolean(),
  trusted: z.boolean(),
  /** One line a person can read: the command line or the URL. */
  target: z.string(),
  /** Local servers: whether the registry runs it in a sandbox (remote servers run elsewhere). */
  sandboxed: z.boolean().optional(),
  state: ConnectionState,
  era: Era.optional(),
  protocolVersion: z.string().optional(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  /**
   * What the connected server declared it can do, as dotted names: "tools", "resources",
   * "resources.subscribe", "prompts", "completions", "logging", … (none until it has connected).
   */
  capabilities: z.array(z.string()).optional(),
  counts: z.object({
    tools: z.number().int(),
    resources: z.number().int(),
    resourceTemplates: z.number().int(),
    prompts: z.number().int(),
  }),
  /** Lists whose refresh failed: the counts above are of the last good ones. */
  stale: StaleListsData.optional(),
  /** What looks like something else: its name or its URL's host mixes scripts (shown on its card). */
  lookalike: z.array(z.string()).optional(),
  /** Remote servers whose sign-in Harbor does (OAuth), once Harbor has looked: see SignInStatus. */
  signIn: SignInStatus.optional(),
  /**
   * Its last real failure (an error or a crash; `code` absent for a crash being restarted) when
   * the state does not say it itself: starting, stopped, or waiting for / denied its launch.
   * Kept until the server is ready again.
   */
  lastError: z.object({ code: ErrorCode.optional(), message: z.string(), stderrTail: z.string().optional(), at: z.number() }).optional(),
});
export type ServerSummary = z.infer<typeof ServerSummary>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** Which front door the renderer is talking to. */
  mode: z.enum(['electron', 'web', 'cli']),
  configPath: z.string(),
  dataDir: z.string(),
  platform: z.string(),
  versions: z.object({ node: z.string(), electron: z.string().optional() }),
  /** Problems found in the configuration file, one per line with its JSON path. */
  configProblems: z.array(z.string()),
  /** Server processes of a Harbor that died without stopping them, stopped at this start (once swept). */
  orphansStopped: z.number().int().nonnegative().optional(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** The desktop app's self-update (electron-updater); browser mode and the CLI are "unsupported". */
export const UpdateStatus = z.object({
  state: z.enum(['unsupported', 'idle', 'checking', 'up-to-date', 'available', 'downloading', 'ready', 'error']),
  currentVersion: z.string(),
  /** The version coming (available, downloading, ready). */
  version: z.string().optional(),
  /** Download progress, 0–100. */
  percent: z.number().optional(),
  /** Why updates are unsupported, or what went wrong. */
  message: z.string().optional(),
  /** The person's setting: check (and download) automatically. */
  autoUpdate: z.boolean(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

