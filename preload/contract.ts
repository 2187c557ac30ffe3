/**
 * THE contract between the renderer and the main process.
 *
 * Every command is `{ request, response }` (zod), every event a zod payload; the types come from
 * `z.infer`. Main validates every incoming payload against these schemas (main/dispatch.ts), the
 * preload and the browser-mode bridge both build `window.harbor` from this file with `buildApi`, so
 * the renderer never spells a channel string. This module is pure: it may be imported by main,
 * preload and renderer alike.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Errors cross the boundary as data (a thrown Error through ipcMain.handle keeps only its string).

export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNKNOWN_COMMAND',
  'FORBIDDEN',
  'INTERNAL',
  'CONFIG_INVALID',
  'CONFIG_IO',
  'SERVER_NOT_FOUND',
  'SERVER_EXISTS',
  'SERVER_DISABLED',
  'SPAWN_FAILED',
  'CONNECT_FAILED',
  'CONNECTION_CLOSED',
  'PROTOCOL_ERROR',
  'TIMEOUT',
  'CANCELLED',
  'TOOL_NOT_FOUND',
  'CONSENT_REQUIRED',
  'CONSENT_STALE',
  'CONSENT_DENIED',
  'KEYCHAIN_UNAVAILABLE',
  'SECRET_MISSING',
  'AUTH_REQUIRED',
  /** Sign-in cannot succeed as things are (unsafe URL, no PKCE S256, issuer mix-up, rejected registration). */
  'AUTH_FAILED',
  'MODEL_NOT_CONFIGURED',
  'MODEL_ERROR',
  'CONVERSATION_NOT_FOUND',
  'CHAT_BUSY',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const HarborErrorData = z.object({
  code: z.string(),
  message: z.string(),
  detail: z.string().optional(),
  /** CONSENT_STALE: which parts of the tool's definition changed since it was approved. */
  changed: z.array(z.string()).optional(),
});
export type HarborErrorData = z.infer<typeof HarborErrorData>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: HarborErrorData };

// ---------------------------------------------------------------------------------------------
// Shared shapes

/** Connection state: one union drives the Host, the CLI and the UI badges. */
export const ConnectionState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stopped') }),
  z.object({ kind: z.literal('starting') }),
  z.object({ kind: z.literal('ready') }),
  z.object({
    kind: z.literal('restarting'),
    attempt: z.number().int(),
    maxAttempts: z.number().int(),
    nextAt: z.number(),
  }),
  z.object({
    kind: z.literal('error'),
    code: z.string(),
    message: z.string(),
    stderrTail: z.string(),
  }),
]);
export type ConnectionState = z.infer<typeof ConnectionState>;

export const Era = z.enum(['modern', 'legacy']);
export type Era = z.infer<typeof Era>;

export const ServerSummary = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  enabled: z.boolean(),
  trusted: z.boolean(),
  /** One line a person can read: the command line or the URL. */
  target: z.string(),
  state: ConnectionState,
  era: Era.optional(),
  protocolVersion: z.string().optional(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  counts: z.object({
    tools: z.number().int(),
    resources: z.number().int(),
    resourceTemplates: z.number().int(),
    prompts: z.number().int(),
  }),
});
export type ServerSummary = z.infer<typeof ServerSummary>;

// ---------------------------------------------------------------------------------------------
// Secret names (main and the app's editor name secrets the same way)

/** What a keychain entry may be called: `${secret:NAME}` in the registry. */
export const SECRET_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/** "GitHub", "GITHUB_TOKEN" → "github-github_token": a valid secret name, as `harbor import` and the editor make them. */
export function secretNameFor(server: string, key: string): string {
  const base = `${server}-${key}`
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|-+$/g, '');
  return (base || 'secret').slice(0, 100);
}

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

// ---------------------------------------------------------------------------------------------
// Consent

export const ConsentChoice = z.enum(['once', 'conversation', 'always', 'deny']);
export type ConsentChoice = z.infer<typeof ConsentChoice>;

/** What the person is asked: everything needed to decide, as plain data (never HTML). */
export const ConsentRequest = z.object({
  id: z.string(),
  kind: z.enum(['tool', 'launch']),
  /** The server as the person configured it, and whether they marked it trusted. */
  server: z.string(),
  trusted: z.boolean(),
  /** Epoch ms; after it the request counts as denied. */
  deadline: z.number(),
  options: z.array(ConsentChoice),
  conversationId: z.string().optional(),
  tool: z
    .object({
      name: z.string(),
      title: z.string().optional(),
      description: z.string(),
      annotations: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  /** The exact arguments: this is how data leaves the conversation. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** Rug pull: the definition changed since it was approved. */
  stale: z.object({ changed: z.array(z.string()), before: z.unknown(), after: z.unknown() }).optional(),
  /** Launch consent: the exact command line and the names (not values) of its env. */
  launch: z.object({ commandLine: z.string(), envNames: z.array(z.string()), cwd: z.string().optional() }).optional(),
});
export type ConsentRequest = z.infer<typeof ConsentRequest>;

export const ConsentDecisions = z.object({
  approvals: z.array(
    z.object({ server: z.string(), tool: z.string(), kind: z.enum(['always', 'once']), fingerprint: z.string(), createdAt: z.number() }),
  ),
  launches: z.array(z.object({ server: z.string(), commandLine: z.string(), createdAt: z.number() })),
  changes: z.array(z.object({ server: z.string(), tool: z.string(), changed: z.array(z.string()), at: z.number() })),
});
export type ConsentDecisions = z.infer<typeof ConsentDecisions>;

// ---------------------------------------------------------------------------------------------
// Chat

export const TurnStatus = z.enum(['running', 'completed', 'stopped', 'maxSteps', 'error', 'consentRequired', 'interrupted']);
export type TurnStatus = z.infer<typeof TurnStatus>;

export const ToolCallStatus = z.enum(['pending', 'awaiting-consent', 'running', 'progress', 'done', 'error']);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

/** A tool's result as the server sent it (untruncated: the model may have got less). */
export const ChatToolResult = z.object({
  content: z.array(z.unknown()),
  structuredContent: z.unknown().optional(),
  isError: z.boolean(),
  /** Bytes cut from what the model got. */
  truncatedBytes: z.number().int().optional(),
});
export type ChatToolResult = z.infer<typeof ChatToolResult>;

export const ChatToolCall = z.object({
  /** The model's id for the call. */
  id: z.string(),
  /** The name the model used: "server__tool", or search_tools / call_tool. */
  name: z.string(),
  /** Where the call went (absent when the name matched no tool). */
  server: z.string().optional(),
  tool: z.string().optional(),
  arguments: z.unknown(),
  status: ToolCallStatus,
  /** How consent went: "approved", "approved-once", "denied", "required", "not-needed". */
  approval: z.string().optional(),
  result: ChatToolResult.optional(),
  error: HarborErrorData.optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
});
export type ChatToolCall = z.infer<typeof ChatToolCall>;

/** A resource the person attached to a message (the app decides what the model reads, not the model). */
export const ChatAttachment = z.object({
  server: z.string(),
  uri: z.string(),
  mimeType: z.string().optional(),
  /** Characters of text the model got from it. */
  chars: z.number().int().optional(),
});
export type ChatAttachment = z.infer<typeof ChatAttachment>;

export const ChatItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), text: z.string(), attachments: z.array(ChatAttachment).optional() }),
  z.object({ kind: z.literal('assistant'), text: z.string() }),
  z.object({ kind: z.literal('toolCall'), call: ChatToolCall }),
  /** Harbor's own line (step limit reached, stopped, failed): never sent to the model as its words. */
  z.object({ kind: z.literal('note'), text: z.string() }),
]);
export type ChatItem = z.infer<typeof ChatItem>;

export const ChatTurn = z.object({
  id: z.string(),
  status: TurnStatus,
  model: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  error: HarborErrorData.optional(),
  items: z.array(ChatItem),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  turnCount: z.number().int(),
  lastStatus: TurnStatus.optional(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const Conversation = ConversationSummary.extend({
  /** "search": the model was given search_tools/call_tool instead of every tool. */
  toolMode: z.enum(['direct', 'search']).optional(),
  turns: z.array(ChatTurn),
});
export type Conversation = z.infer<typeof Conversation>;

/** Whether a model is configured; when not, how to add one (and a local Ollama, if one answered). */
export const ChatStatus = z.object({
  configured: z.boolean(),
  model: z.object({ provider: z.string(), model: z.string() }).optional(),
  help: z.string().optional(),
  ollama: z.object({ url: z.string(), models: z.array(z.string()), config: z.record(z.string(), z.unknown()) }).optional(),
  /** Other models the configured endpoint offers (an OpenAI-compatible server's /models), for the model picker. */
  models: z.array(z.string()).optional(),
});
export type ChatStatus = z.infer<typeof ChatStatus>;

/** What the tool definitions cost in the model's context (o200k_base tokens), over the servers that are ready. */
export const ChatContext = z.object({
  contextWindow: z.number().int(),
  /** Tokens of every enabled tool definition, as offering them all would send. */
  toolTokens: z.number().int(),
  instructionTokens: z.number().int(),
  toolCount: z.number().int(),
  /** Above this many tool tokens the model gets search_tools/call_tool instead (toolSearch "auto"). */
  searchThresholdTokens: z.number().int(),
  toolSearch: z.enum(['auto', 'on', 'off']),
  /** What a new conversation would be given now. */
  mode: z.enum(['direct', 'search']),
  servers: z.array(z.object({ name: z.string(), tools: z.number().int(), toolTokens: z.number().int(), instructionTokens: z.number().int() })),
  /** Enabled servers not connected yet: their tools are not counted. */
  notConnected: z.array(z.string()),
});
export type ChatContext = z.infer<typeof ChatContext>;

const ConversationId = z.object({ id: z.string().min(1) }).strict();

// ---------------------------------------------------------------------------------------------
// Registry editing, catalog, traffic, elicitation (the app's views)

/** A server's configuration as the person wrote it: secret values are never here, only ${secret:…} refs. */
export const ServerConfigData = z.record(z.string(), z.unknown());

export const RegistryProblem = z.object({
  /** JSON path, e.g. mcpServers.github.args[1] */
  path: z.string(),
  message: z.string(),
  /** 1-based line in the raw text, when known. */
  line: z.number().int().optional(),
});
export type RegistryProblem = z.infer<typeof RegistryProblem>;

export const RegistryView = z.object({
  path: z.string(),
  text: z.string(),
  servers: z.array(z.object({ name: z.string(), config: ServerConfigData })),
  problems: z.array(RegistryProblem),
});
export type RegistryView = z.infer<typeof RegistryView>;

/** MCP objects pass through as data; the renderer renders them as text, never as HTML. */
const McpObject = z.record(z.string(), z.unknown());
export const CatalogView = z.object({
  server: z.string(),
  tools: z.array(McpObject),
  resources: z.array(McpObject),
  resourceTemplates: z.array(McpObject),
  prompts: z.array(McpObject),
});
export type CatalogView = z.infer<typeof CatalogView>;

export const TrafficEntryData = z.object({
  seq: z.number().int(),
  at: z.number(),
  server: z.string(),
  direction: z.enum(['out', 'in']),
  text: z.string(),
  method: z.string().optional(),
  id: z.union([z.string(), z.number()]).optional(),
});
export type TrafficEntryData = z.infer<typeof TrafficEntryData>;

/** A server asks the person for input during a chat tool call; answered with chat.answerElicitation. */
export const ChatElicitationData = z.object({
  id: z.string(),
  conversationId: z.string(),
  turnId: z.string(),
  toolCallId: z.string().optional(),
  server: z.string(),
  mode: z.enum(['form', 'url']),
  message: z.string(),
  requestedSchema: z.unknown().optional(),
  url: z.string().optional(),
  deadline: z.number(),
});
export type ChatElicitationData = z.infer<typeof ChatElicitationData>;

/** A server asks the person for input (form) or to visit a URL (url mode). */
export const ElicitationRequestData = z.object({
  id: z.string(),
  server: z.string(),
  mode: z.enum(['form', 'url']),
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown()).optional(),
  url: z.string().optional(),
  deadline: z.number(),
});
export type ElicitationRequestData = z.infer<typeof ElicitationRequestData>;

/** A config file of another app that Harbor can import from, and whether it exists on this machine. */
export const ImportSourceData = z.object({
  format: z.enum(['claude-desktop', 'vscode', 'cursor']),
  label: z.string(),
  path: z.string(),
  exists: z.boolean(),
});
export type ImportSourceData = z.infer<typeof ImportSourceData>;

/** What an import does (or, previewed, would do): names and places only, never a secret value. */
export const ImportReportData = z.object({
  format: z.enum(['claude-desktop', 'vscode', 'cursor']),
  label: z.string(),
  source: z.string(),
  configPath: z.string(),
  dryRun: z.boolean(),
  written: z.boolean(),
  /** A name clash without rename: nothing can be written. */
  blocked: z.boolean(),
  added: z.array(z.string()),
  identical: z.array(z.string()),
  clashes: z.array(z.object({ name: z.string(), renamedTo: z.string().optional() })),
  skipped: z.array(z.object({ name: z.string(), problems: z.array(z.string()) })),
  /** Each added server: what it runs (command line or URL, secrets as ${secret:…} references). */
  servers: z.array(z.object({ name: z.string(), transport: z.enum(['stdio', 'http']), target: z.string(), enabled: z.boolean() })),
  secretsMoved: z.array(z.object({ server: z.string(), where: z.enum(['env', 'headers']), key: z.string(), secret: z.string() })),
  secretsNotMoved: z.array(z.object({ server: z.string(), where: z.enum(['env', 'headers']), key: z.string() })),
  inputsReferenced: z.array(
    z.object({ id: z.string(), description: z.string().optional(), password: z.boolean().optional(), defined: z.boolean(), servers: z.array(z.string()) }),
  ),
  unresolvedVariables: z.array(z.object({ server: z.string(), variable: z.string(), where: z.string() })),
  warnings: z.array(z.object({ server: z.string(), message: z.string() })),
});
export type ImportReportData = z.infer<typeof ImportReportData>;

export const ModelProvider = z.enum(['anthropic', 'openai', 'openai-compatible']);
export type ModelProvider = z.infer<typeof ModelProvider>;

const ChatSettingsData = z.object({
  maxSteps: z.number().int().positive().optional(),
  resultCapBytes: z.number().int().positive().optional(),
  toolSearch: z.enum(['auto', 'on', 'off']).optional(),
  toolSearchThreshold: z.number().positive().max(1).optional(),
});

/** The Settings page: the model (its key only as "where it comes from"), chat settings and their defaults. */
export const SettingsData = z.object({
  model: z
    .object({
      provider: ModelProvider,
      model: z.string(),
      baseURL: z.string().optional(),
      contextWindow: z.number().int().optional(),
      apiKey: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('secret'), secret: z.string(), set: z.boolean().optional() }),
        z.object({ kind: z.literal('env'), variable: z.string().optional() }),
        z.object({ kind: z.literal('literal') }),
      ]),
    })
    .optional(),
  chat: ChatSettingsData,
  defaults: z.object({
    maxSteps: z.number().int(),
    resultCapBytes: z.number().int(),
    toolSearch: z.literal('auto'),
    toolSearchThreshold: z.number(),
    contextWindow: z.number().int(),
    requestTimeoutMs: z.number().int(),
  }),
});
export type SettingsData = z.infer<typeof SettingsData>;

export const ConsentPolicyMode = z.enum(['ask', 'allow', 'deny']);
export type ConsentPolicyMode = z.infer<typeof ConsentPolicyMode>;

const Empty = z.object({}).strict();
const ServerName = z.object({ name: z.string().min(1) }).strict();

// ---------------------------------------------------------------------------------------------
// Commands: `group.method` → { request, response }. Later issues add commands here; none renames one.

type CommandSpec = { request: z.ZodType; response: z.ZodType };
const command = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

export const commands = {
  'app.info': command(Empty, AppInfo),
  'app.updateStatus': command(Empty, UpdateStatus),
  /** Checks now (the person asked); a found update downloads, then waits for app.installUpdate. */
  'app.checkForUpdates': command(Empty, UpdateStatus),
  /** Restarts into the downloaded update once every server has stopped: the person chose when. */
  'app.installUpdate': command(Empty, z.object({ restarting: z.boolean() })),
  /** The "check for updates automatically" setting (the app's settings.json in its data dir). */
  'app.setAutoUpdate': command(z.object({ enabled: z.boolean() }).strict(), UpdateStatus),
  'servers.list': command(Empty, z.array(ServerSummary)),
  'servers.restart': command(ServerName, ServerSummary),
  'servers.stop': command(ServerName, ServerSummary),
  'servers.start': command(ServerName, ServerSummary),
  /** Adds a server to the registry (saved atomically) and returns it, stopped. */
  'servers.add': command(z.object({ name: z.string().trim().min(1).max(100), config: ServerConfigData }).strict(), ServerSummary),
  /** Replaces a server's configuration (optionally renaming it); a running server restarts. */
  'servers.update': command(
    z.object({ name: z.string().min(1), config: ServerConfigData, newName: z.string().trim().min(1).max(100).optional() }).strict(),
    ServerSummary,
  ),
  'servers.remove': command(ServerName, z.object({ removed: z.boolean() })),
  /** Signs in to a remote server (OAuth): opens the sign-in page, waits for it, reconnects; the server's new summary. */
  'auth.login': command(ServerName, ServerSummary),
  /** Forgets a remote server's tokens and client registration (revoked at the authorization server when possible). */
  'auth.logout': command(ServerName, z.object({ removed: z.boolean(), revoked: z.boolean() })),
  'registry.get': command(Empty, RegistryView),
  /** Raw JSON editing: validated first; nothing is written when there are problems. */
  'registry.save': command(z.object({ text: z.string().max(5_000_000) }).strict(), z.object({ saved: z.boolean(), problems: z.array(RegistryProblem) })),
  /** The usual config files of Claude Desktop, VS Code and Cursor here, and which exist. */
  'registry.importSources': command(Empty, z.array(ImportSourceData)),
  /** What importing a file would do (added, clashes, secrets moving to the keychain, inputs referenced); writes nothing. */
  'registry.importPreview': command(z.object({ path: z.string().min(1).max(4096), rename: z.boolean().optional() }).strict(), ImportReportData),
  /** Imports a file exactly as `harbor import` does: secrets to the keychain first, then the registry. */
  'registry.importApply': command(z.object({ path: z.string().min(1).max(4096), rename: z.boolean().optional() }).strict(), ImportReportData),
  /** The person approved launching this server as configured now (persisted); it starts. */
  'servers.approveLaunch': command(ServerName, ServerSummary),
  'catalog.get': command(ServerName, CatalogView),
  /** Turns a tool on or off (the registry's disabledTools); a disabled tool is never offered to the model. */
  'tools.setEnabled': command(
    z.object({ server: z.string().min(1), tool: z.string().min(1), enabled: z.boolean() }).strict(),
    z.object({ disabledTools: z.array(z.string()) }),
  ),
  'tools.call': command(
    z.object({ server: z.string().min(1), tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() }).strict(),
    McpObject,
  ),
  'resources.read': command(z.object({ server: z.string().min(1), uri: z.string().min(1) }).strict(), McpObject),
  'prompts.get': command(
    z.object({ server: z.string().min(1), name: z.string().min(1), arguments: z.record(z.string(), z.string()).optional() }).strict(),
    McpObject,
  ),
  'completion.complete': command(
    z
      .object({
        server: z.string().min(1),
        ref: z.union([z.object({ type: z.literal('ref/prompt'), name: z.string() }), z.object({ type: z.literal('ref/resource'), uri: z.string() })]),
        argument: z.object({ name: z.string(), value: z.string() }),
        context: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
    z.object({ values: z.array(z.string()), total: z.number().optional(), hasMore: z.boolean().optional() }),
  ),
  'traffic.list': command(z.object({ server: z.string().optional(), afterSeq: z.number().int().optional() }).strict(), z.array(TrafficEntryData)),
  /** Questions still waiting for the person (a reloaded window shows them again). */
  'elicitation.pending': command(Empty, z.object({ general: z.array(ElicitationRequestData), chat: z.array(ChatElicitationData) })),
  'elicitation.respond': command(
    z.object({ id: z.string(), action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string(), z.unknown()).optional() }).strict(),
    z.object({ accepted: z.boolean() }),
  ),
  'consent.pending': command(Empty, z.array(ConsentRequest)),
  'consent.respond': command(
    z.object({ id: z.string(), decision: ConsentChoice }).strict(),
    z.object({ accepted: z.boolean() }),
  ),
  'consent.list': command(Empty, ConsentDecisions),
  /** Per-server ("*") and per-tool overrides of the consent tiers. */
  'consent.policies': command(Empty, z.array(z.object({ server: z.string(), tool: z.string(), mode: ConsentPolicyMode }))),
  /** Sets an override (tool "*" = the server's default); mode null removes it. */
  'consent.setPolicy': command(
    z.object({ server: z.string().min(1), tool: z.string().min(1), mode: ConsentPolicyMode.nullable() }).strict(),
    z.array(z.object({ server: z.string(), tool: z.string(), mode: ConsentPolicyMode })),
  ),
  /** Secret names only (values never leave main), and whether the keychain can be reached. */
  'secrets.list': command(Empty, z.object({ names: z.array(z.string()), available: z.boolean(), reason: z.string().optional() })),
  /** Stores a value in the OS keychain; the registry references it as ${secret:NAME}. */
  'secrets.set': command(
    z.object({ name: z.string().regex(SECRET_NAME), value: z.string().min(1).max(65_536) }).strict(),
    z.object({ set: z.boolean() }),
  ),
  'secrets.delete': command(z.object({ name: z.string().regex(SECRET_NAME) }).strict(), z.object({ deleted: z.boolean() })),
  'settings.get': command(Empty, SettingsData),
  /** Sets the chat model (null removes it). apiKeyMode "set" stores apiKey in the keychain; "env" uses the provider's variable. */
  'settings.setModel': command(
    z
      .object({
        model: z
          .object({
            provider: ModelProvider,
            model: z.string().trim().min(1).max(200),
            baseURL: z.string().max(2048).optional(),
            contextWindow: z.number().int().positive().optional(),
            apiKeyMode: z.enum(['keep', 'env', 'set']),
            apiKey: z.string().max(65_536).optional(),
          })
          .strict()
          .nullable(),
      })
      .strict(),
    SettingsData,
  ),
  /** Replaces the chat settings; a field left out goes back to its default. */
  'settings.setChat': command(z.object({ chat: ChatSettingsData.strict() }).strict(), SettingsData),
  'consent.revoke': command(z.object({ server: z.string().min(1), tool: z.string().min(1).optional() }).strict(), z.object({ removed: z.number().int() })),
  'chat.status': command(Empty, ChatStatus),
  /** Starts a turn (a new conversation without conversationId); progress arrives as chat.* events. */
  'chat.send': command(
    z
      .object({
        conversationId: z.string().min(1).optional(),
        text: z.string().min(1),
        /** Resources the person chose to attach: main reads them and adds their text to this message. */
        attachments: z.array(z.object({ server: z.string().min(1), uri: z.string().min(1) }).strict()).max(8).optional(),
      })
      .strict(),
    z.object({ conversationId: z.string(), turnId: z.string() }),
  ),
  /** The context meter: what the ready servers' tool definitions cost. */
  'chat.context': command(Empty, ChatContext),
  'chat.stop': command(z.object({ conversationId: z.string().min(1) }).strict(), z.object({ stopped: z.boolean() })),
  'chat.answerElicitation': command(
    z
      .object({
        id: z.string(),
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    z.object({ accepted: z.boolean() }),
  ),
  'conversations.list': command(Empty, z.array(ConversationSummary)),
  'conversations.open': command(ConversationId, Conversation),
  'conversations.rename': command(z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(200) }).strict(), ConversationSummary),
  'conversations.delete': command(ConversationId, z.object({ deleted: z.boolean() })),
  'conversations.export': command(
    z.object({ id: z.string().min(1), format: z.enum(['markdown', 'json']) }).strict(),
    z.object({ filename: z.string(), mimeType: z.string(), content: z.string() }),
  ),
} satisfies Record<string, CommandSpec>;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandRequest<K extends CommandName> = z.input<Commands[K]['request']>;
export type CommandResponse<K extends CommandName> = z.output<Commands[K]['response']>;

// ---------------------------------------------------------------------------------------------
// Events: main → renderer, broadcast.

export const events = {
  /** The app's update state changed (a version is coming, downloading, ready to restart). */
  'app.update': UpdateStatus,
  /** A server's state, catalog or configuration changed; the renderer refetches what it shows. */
  'servers.changed': z.object({
    name: z.string(),
    reason: z.enum(['state', 'catalog', 'resourceUpdated', 'config', 'removed']),
    summary: ServerSummary.optional(),
    /** For reason "catalog": which lists changed. */
    changed: z.array(z.enum(['tools', 'resources', 'resourceTemplates', 'prompts'])).optional(),
    /** For reason "resourceUpdated": the resource that changed. */
    uri: z.string().optional(),
  }),
  /** A JSON-RPC message in or out (redacted), for the Activity view. */
  'traffic.message': TrafficEntryData,
  /** A sign-in page was opened in the system browser for a server (shown too, in case the browser did not come up). */
  'auth.open': z.object({ server: z.string(), url: z.string() }),
  /** A server asks the person for input; answer with elicitation.respond. */
  'elicitation.request': ElicitationRequestData,
  'elicitation.resolved': z.object({ id: z.string(), action: z.enum(['accept', 'decline', 'cancel']) }),
  /** The person must decide before a tool runs or a server launches. */
  'consent.request': ConsentRequest,
  /** A pending request ended (answered, timed out, or cancelled). */
  'consent.resolved': z.object({ id: z.string(), decision: ConsentChoice }),
  /** An approved tool's definition changed (rug pull): its approval is suspended. */
  'consent.changed': z.object({ server: z.string(), tool: z.string(), changed: z.array(z.string()) }),
  /** Streamed model text of a running turn. */
  'chat.delta': z.object({ conversationId: z.string(), turnId: z.string(), text: z.string() }),
  /** A tool call of a running turn changed state (pending → awaiting-consent → running → progress → done/error). */
  'chat.toolCall': z.object({
    conversationId: z.string(),
    turnId: z.string(),
    call: ChatToolCall,
    progress: z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).optional(),
  }),
  /** A server asks the person for input during a chat tool call; answer with chat.answerElicitation. */
  'chat.elicitation': ChatElicitationData,
  /** A turn ended: completed, stopped, step limit, consent needed, or failed. */
  'chat.done': z.object({
    conversationId: z.string(),
    turnId: z.string(),
    status: TurnStatus,
    text: z.string(),
    error: HarborErrorData.optional(),
  }),
} satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = z.output<Events[K]>;

// ---------------------------------------------------------------------------------------------
// Transports. The Electron preload and the browser-mode WebSocket bridge both implement this.

export const IPC_INVOKE_CHANNEL = 'harbor:invoke';
export const IPC_EVENT_CHANNEL = 'harbor:event';

/** Envelope on the invoke channel (Electron) and on the WebSocket (browser mode). */
export const InvokeEnvelope = z.object({ command: z.string(), payload: z.unknown() }).strict();
export const EventEnvelope = z.object({ event: z.string(), payload: z.unknown() }).strict();

/** WebSocket frames, browser mode. */
export const WsClientFrame = z
  .object({ id: z.number().int().nonnegative(), command: z.string(), payload: z.unknown() })
  .strict();
export const WsServerFrame = z.union([
  z.object({ id: z.number().int(), result: z.unknown() }).strict(),
  z.object({ event: z.string(), payload: z.unknown() }).strict(),
]);

export interface Transport {
  invoke(command: string, payload: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

type GroupOf<K extends string> = K extends `${infer G}.${string}` ? G : never;
type MethodsOf<K extends string, G extends string> = K extends `${G}.${infer M}` ? M : never;

export type HarborApi = {
  [G in GroupOf<CommandName>]: {
    [M in MethodsOf<CommandName, G>]: `${G}.${M}` extends infer K extends CommandName
      ? (request: CommandRequest<K>) => Promise<Result<CommandResponse<K>>>
      : never;
  };
} & {
  on: {
    [G in GroupOf<EventName>]: {
      [M in MethodsOf<EventName, G>]: `${G}.${M}` extends infer K extends EventName
        ? (listener: (payload: EventPayload<K>) => void) => () => void
        : never;
    };
  };
};

/**
 * Builds the typed `window.harbor` object from the contract over any transport. Results are
 * passed through as data; a transport failure becomes an `{ ok: false }` result, never a throw.
 */
export function buildApi(transport: Transport): HarborApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(commands)) {
    const [group, method] = name.split('.') as [string, string];
    (api[group] ??= {})[method] = async (request: unknown): Promise<Result<unknown>> => {
      try {
        return (await transport.invoke(name, request ?? {})) as Result<unknown>;
      } catch (error) {
        return {
          ok: false,
          error: { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) },
        };
      }
    };
  }
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let unsubscribeTransport: (() => void) | undefined;
  const on: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(events)) {
    const [group, method] = name.split('.') as [string, string];
    (on[group] ??= {})[method] = (listener: (payload: unknown) => void) => {
      unsubscribeTransport ??= transport.subscribe((event, payload) => {
        for (const l of listeners.get(event) ?? []) l(payload);
      });
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    };
  }
  return { ...api, on } as unknown as HarborApi;
}
