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
  'AUTH_REQUIRED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const HarborErrorData = z.object({
  code: z.string(),
  message: z.string(),
  detail: z.string().optional(),
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
