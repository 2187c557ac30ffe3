import { z } from 'zod';
import { definesShellFunction, isPlainEnvName } from './code-loading-env';
import { LogLevel, serverNameProblem } from '../../../preload/contract';
import { InstalledFrom, InstallsConfig } from './install-fields';
import { describeValue, registryErrorMap } from './messages';
import { hasUserInfo } from './url-userinfo';
import { OAuthConfig } from './oauth-config';
import { SandboxConfig } from './sandbox-config';

/**
 * The chat model: `"model": {"provider": "anthropic", "model": "claude-…"}`. Keys belong in the
 * keychain (`"apiKey": "${secret:NAME}"`); without one the provider's usual environment variable
 * (ANTHROPIC_API_KEY, OPENAI_API_KEY) is used.
 */
export const ModelConfig = z
  .looseObject({
    provider: z.enum(['anthropic', 'openai', 'openai-compatible']),
    model: z.string().min(1, 'must not be empty'),
    baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    apiKey: z.string().optional(),
    /** The model's context window in tokens (default 128,000): sizes the tool-search threshold. */
    contextWindow: z.number().int().positive().optional(),
    /** Whether tool results may carry images to this model (default: anthropic and openai yes, others no). */
    imagesInToolResults: z.boolean().optional(),
    /** Whether the person may attach images for this model (default: anthropic and openai yes, others by model name). */
    vision: z.boolean().optional(),
    /** Retries of a failed model request (default 2). */
    maxRetries: z.number().int().min(0).optional(),
  })
  .refine((m) => m.provider !== 'openai-compatible' || m.baseURL !== undefined, {
    message: 'an "openai-compatible" model needs "baseURL" (e.g. "http://127.0.0.1:11434/v1" for Ollama)',
    path: ['baseURL'],
  });
export type ModelConfig = z.infer<typeof ModelConfig>;

/**
 * The registry file: the `mcpServers` shape people already have from Claude Desktop and Cursor,
 * plus Harbor's own fields beside them. Objects are loose on purpose: unknown fields a person or
 * another tool put in the file survive a load → save round trip.
 */
const HarborFields = {
  /** Default true: a server in the file is started unless the person turned it off. */
  enabled: z.boolean().optional(),
  /** Default false: annotations of an untrusted server are ignored by the consent policy. */
  trusted: z.boolean().optional(),
  /** Per-request timeout for this server's interactive calls, in milliseconds. */
  timeoutMs: z.number().int().positive().optional(),
  /**
   * How long a stdio server's `server/discover` probe may go unanswered before Harbor takes the
   * server for legacy (default 4000 ms). Raise it for a server that is slow to start.
   */
  probeTimeoutMs: z.number().int().positive().max(600_000).optional(),
  /** Tools of this server the person turned off: never offered to the model. */
  disabledTools: z.array(z.string()).optional(),
  /**
   * Folders this server may work in ("/abs/path", "file:///abs/path", "~/projects/x"): Harbor
   * declares `roots` to it and answers `roots/list` with them. An entry that is not an existing
   * folder is a problem of this server (registry/roots.ts), left out of `roots/list`; the file and
   * the server's other settings still work, so a folder deleted later stops nothing.
   */
  roots: z.array(z.string()).optional(),
  /** When the server asks the model (sampling): "ask" the person each time (default), "allow", or "deny" (not offered at all). */
  sampling: z.enum(['ask', 'allow', 'deny']).optional(),
  /** The model(s) this server's sampling uses instead of the registry's "model"; its hints pick among several. */
  samplingModel: z.union([ModelConfig, z.array(ModelConfig).min(1, 'must name at least one model')]).optional(),
  /** At most this many sampling requests of this server per minute (default 10). */
  samplingPerMinute: z.number().int().positive().max(1000).optional(),
  /** The least severe log message the server should send (legacy logging/setLevel; modern per request). */
  logLevel: LogLevel.optional(),
  /** Installed from a bundle or the gallery (install-fields.ts). */
  installed: InstalledFrom.optional(),
};

/** The rule lives in the contract, shared with the app's editor; the registry's callers keep importing it from here. */
export { serverNameProblem };

/** A key of "mcpServers". */
const ServerName = z
  .string()
  .min(1)
  .superRefine((name, ctx) => {
    const problem = name === '' ? undefined : serverNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Harbor's own fields: what another app's config never has, and what an import compares without. */
export const HARBOR_FIELD_NAMES: ReadonlySet<string> = new Set([...Object.keys(HarborFields), 'sandbox']);

export const StdioServerConfig = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional(),
  env: z
    .record(
      z
        .string()
        .refine(isPlainEnvName, 'an environment variable name must not be empty or hold "=" (write NAME and its value apart)')
        .refine((name) => !definesShellFunction(name), 'a BASH_FUNC_… variable defines a shell function, which every shell on the way runs as code: remove it'),
      z.string(),
    )
    .optional(),
  cwd: z.string().optional(),
  ...HarborFields,
  /** Run the server in a sandbox (sandbox-config.ts); only local servers run on this machine. */
  sandbox: SandboxConfig.optional(),
});
export type StdioServerConfig = z.infer<typeof StdioServerConfig>;

export const RemoteServerConfig = z.looseObject({
  type: z.enum(['http', 'sse', 'streamable-http']).optional(),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine((url) => !hasUserInfo(url), 'must not carry a user name or password (https://name@host/… reads as one host and goes to another): remove the part before "@"'),
  headers: z.record(z.string(), z.string()).optional(),
  /** A hint for a legacy-only remote: "sse" skips straight to the HTTP+SSE transport. */
  transport: z.enum(['http', 'sse']).optional(),
  /** How Harbor gets a token for this server (oauth-config.ts); absent: a person signs in when asked. */
  oauth: OAuthConfig.optional(),
  ...HarborFields,
});
export type RemoteServerConfig = z.infer<typeof RemoteServerConfig>;

/**
 * A server is stdio when it has "command", remote when it has "url". The branch is chosen first so
 * that each problem is reported against the fields the person meant (`args[1]: expected string`),
 * not as an opaque "no union member matched".
 */
export const ServerConfig = z.unknown().transform((value, ctx): StdioServerConfig | RemoteServerConfig => {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const branch = !isObject
    ? undefined
    : 'command' in value
      ? StdioServerConfig
      : 'url' in value
        ? RemoteServerConfig
        : undefined;
  if (!branch) {
    ctx.addIssue({
      code: 'custom',
      message: isObject
        ? 'a server needs either "command" (a local stdio server) or "url" (a remote server)'
        : `expected an object with "command" or "url", got ${describeValue(value)}`,
    });
    return z.NEVER;
  }
  // The inner parse is a separate run: it needs the registry's messages passed again.
  const result = branch.safeParse(value, { error: registryErrorMap });
  if (!result.success) {
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  return result.data;
});
export type ServerConfig = z.infer<typeof ServerConfig>;

/** How the chat loop behaves; every field has a default. */
export const ChatConfig = z.looseObject({
  /** Model steps per turn before the turn ends with a note (default 25). */
  maxSteps: z.number().int().positive().optional(),
  /** Tool results larger than this (bytes of text) reach the model truncated (default 100,000). */
  resultCapBytes: z.number().int().positive().optional(),
  /** "auto": search_tools/call_tool once the tool definitions exceed the threshold; "on"/"off" force it. */
  toolSearch: z.enum(['auto', 'on', 'off']).optional(),
  /** The threshold as a fraction of the context window (default 0.05). */
  toolSearchThreshold: z.number().positive().max(1).optional(),
  /**
   * Code mode: "on" offers run_code (one script that calls many tools, run in Harbor's sandbox)
   * instead of the tools themselves; "auto" offers it beside them; "off" never.
   */
  codeMode: z.enum(['off', 'on', 'auto']).optional(),
  /** What one script may use (also the defaults of harbor exec). */
  codeLimits: z
    .looseObject({
      /** The script's running time, not counting waits for tool calls (default 10,000). */
      timeoutMs: z.number().int().positive().max(3_600_000).optional(),
      memoryMb: z.number().int().min(4).max(4096).optional(),
      toolCalls: z.number().int().positive().max(100_000).optional(),
      /** UTF-8 bytes of the script's logs and result together. */
      outputBytes: z.number().int().positive().max(100_000_000).optional(),
    })
    .optional(),
});
export type ChatConfig = z.infer<typeof ChatConfig>;

/**
 * Named sets of tools a conversation may be limited to: "SERVER/TOOL" names one tool, "SERVER/*"
 * every tool of the server (tools/toolsets.ts matches them).
 */
export const Toolsets = z.record(
  z.string().trim().min(1, 'a toolset needs a name').max(100, 'a toolset name has at most 100 characters'),
  z.array(
    z.string().regex(/^[^/]+\/.+$/, 'write a toolset entry as "SERVER/TOOL" (one tool) or "SERVER/*" (every tool of the server)'),
  ),
);
export type Toolsets = z.infer<typeof Toolsets>;

export const RegistryFile = z.looseObject({
  mcpServers: z.record(ServerName, ServerConfig).optional(),
  model: ModelConfig.optional(),
  chat: ChatConfig.optional(),
  installs: InstallsConfig.optional(),
  toolsets: Toolsets.optional(),
});
export type RegistryFile = z.infer<typeof RegistryFile>;

export type ParsedRegistry =
  | { readonly success: true; readonly data: RegistryFile; readonly modelIssues: readonly z.core.$ZodIssue[]; readonly error?: undefined }
  | { readonly success: false; readonly error: z.ZodError; readonly data?: undefined; readonly modelIssues?: undefined };

/**
 * Parses a whole registry document with the registry's plain-language messages. A mistake inside
 * `"model"` alone does not make the file unusable (servers, calls and every other command work):
 * the file parses with its `model` kept as written (so a save keeps it), and `modelIssues` says
 * what is wrong — chat and sampling refuse to run until it is fixed (RegistryState.modelProblems).
 */
export function parseRegistryFile(value: unknown): ParsedRegistry {
  const parsed = RegistryFile.safeParse(value, { error: registryErrorMap });
  if (parsed.success) return { success: true, data: parsed.data, modelIssues: [] };
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject || !parsed.error.issues.every((issue) => issue.path[0] === 'model')) return { success: false, error: parsed.error };
  const { model, ...rest } = value as Record<string, unknown>;
  const without = RegistryFile.safeParse(rest, { error: registryErrorMap });
  if (!without.success) return { success: false, error: parsed.error };
  return { success: true, data: { ...without.data, model: model as ModelConfig }, modelIssues: parsed.error.issues };
}

export function isStdio(config: ServerConfig): config is StdioServerConfig {
  return 'command' in config && typeof config.command === 'string';
}
