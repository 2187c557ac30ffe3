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
});
export type AppInfo = z.infer<typeof AppInfo>;

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

export const ChatItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), text: z.string() }),
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
});
export type ChatStatus = z.infer<typeof ChatStatus>;

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
  'registry.get': command(Empty, RegistryView),
  /** Raw JSON editing: validated first; nothing is written when there are problems. */
  'registry.save': command(z.object({ text: z.string().max(5_000_000) }).strict(), z.object({ saved: z.boolean(), problems: z.array(RegistryProblem) })),
  'catalog.get': command(ServerName, CatalogView),
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
  'consent.revoke': command(z.object({ server: z.string().min(1), tool: z.string().min(1).optional() }).strict(), z.object({ removed: z.number().int() })),
  'chat.status': command(Empty, ChatStatus),
  /** Starts a turn (a new conversation without conversationId); progress arrives as chat.* events. */
  'chat.send': command(
    z.object({ conversationId: z.string().min(1).optional(), text: z.string().min(1) }).strict(),
    z.object({ conversationId: z.string(), turnId: z.string() }),
  ),
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
  'chat.elicitation': z.object({
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
  }),
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
