/** Events: main → renderer, broadcast. In development and tests every payload is checked against these. */
import { z } from 'zod';
import { appEvents } from './apps';
import { ChatMissingServer, ChatToolCall, TurnStatus } from './chat';
import { ConsentChoice, ConsentRequest } from './consent';
import { HarborErrorData } from './errors';
import { SamplingExchange, SamplingRequestData, ServerLogEntry } from './client-features';
import { installEvents } from './installs';
import { RegistryChanged } from './registry';
import { sandboxEvents } from './sandbox';
import { ElicitationRequestData, LaunchFailureData, ServerChange, ServerEventData, TrafficEntryData } from './server-views';
import { UpdateStatus } from './shared';
import { taskEvents } from './tasks';

export const events = {
  /** The app's update state changed (a version is coming, downloading, ready to restart). */
  'app.update': UpdateStatus,
  /** A server's state, catalog or configuration changed; the renderer refetches what it shows. */
  'servers.changed': ServerChange,
  /** harbor.json was edited by hand and read again (or could not be: its problems, the last good registry kept). */
  'registry.changed': RegistryChanged,
  /** A `servers.changed` event as the Host recorded it (see serverEvents.list). */
  'serverEvents.entry': ServerEventData,
  /** A server could not be started (its state is now "error"): the Activity view lists it, the app says so. */
  'servers.launchFailed': LaunchFailureData,
  /** A JSON-RPC message in or out (redacted), for the Activity view. */
  'traffic.message': TrafficEntryData,
  /** A sign-in page was opened in the system browser for a server (shown too, in case the browser did not come up). */
  'auth.open': z.object({ server: z.string(), url: z.string() }),
  /** A server asks the person for input; answer with elicitation.respond. */
  'elicitation.request': ElicitationRequestData,
  'elicitation.resolved': z.object({ id: z.string(), action: z.enum(['accept', 'decline', 'cancel']) }),
  /** A server sent a log message (notifications/message). */
  'servers.log': ServerLogEntry,
  /** A server asks the model something and the person reviews it (a stage of it); answer with sampling.respond. */
  'sampling.request': SamplingRequestData,
  /** A review stage ended (answered, timed out, or its request gave up). */
  'sampling.resolved': z.object({ id: z.string(), action: z.enum(['approve', 'deny']) }),
  /** How a server's sampling request ended: sent back, denied, declined, failed or over its rate limit. */
  'sampling.exchange': SamplingExchange,
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
  /**
   * The arguments of a call to a tool with an app, as the model is still writing them (partial
   * JSON, best effort): the app may show them before the call itself arrives as chat.toolCall.
   */
  'chat.toolInput': z.object({
    conversationId: z.string(),
    turnId: z.string(),
    toolCallId: z.string(),
    server: z.string(),
    tool: z.string(),
    text: z.string(),
    /** The tool's app (its ui:// resource): the page opens it at once, without asking apps.forTool first. */
    resourceUri: z.string().optional(),
  }),
  /** A turn starts without servers the conversation used: which, and why (#28). */
  'chat.missing': z.object({ conversationId: z.string(), turnId: z.string(), servers: z.array(ChatMissingServer) }),
  /** A turn ended: completed, stopped, step limit, consent needed, or failed. */
  'chat.done': z.object({
    conversationId: z.string(),
    turnId: z.string(),
    status: TurnStatus,
    text: z.string(),
    error: HarborErrorData.optional(),
  }),
  // MCP Apps (apps.ts): the apps' audit trail.
  ...appEvents,
  ...sandboxEvents,
  ...taskEvents,
  ...installEvents,
} satisfies Record<string, z.ZodType>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = z.output<Events[K]>;
