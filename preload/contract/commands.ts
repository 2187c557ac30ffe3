/**
 * Commands: `group.method` → { request, response }. Main validates every request against these
 * (main/dispatch.ts) and, in development and tests, every response too.
 */
import { z } from 'zod';
import { appCommands } from './apps';
import { ChatContext, ChatStatus, ChatToolResult, Conversation, ConversationSummary } from './chat';
import { FileUploads } from './chat-files';
import { ConsentChoice, ConsentDecisions, ConsentPolicyMode, ConsentRequest } from './consent';
import { installCommands } from './installs';
import { ImportReportData, ImportRequest, ImportSourceData, RegistryProblem, RegistryView, ServerConfigData } from './registry';
import { sandboxCommands } from './sandbox';
import { doctorCommands } from './doctor';
import { skillCommands } from './skills';
import { harborLogCommands } from './harbor-log';
import { SECRET_NAME } from './secrets';
import { LogLevel, ResourceSubscriptionsView, SamplingAnswer, SamplingRequestData, ServerLogsView } from './client-features';
import { CatalogView, ElicitationRequestData, LaunchFailureData, McpObject, ServerEventData, ToolOfferView, ToolSearchHit, TrafficEntryData } from './server-views';
import { ChatSettingsData, ModelProvider, SettingsData } from './settings';
import { AppInfo, ServerSummary, UpdateStatus } from './shared';
import { taskCommands } from './tasks';

const Empty = z.object({}).strict();
const ServerName = z.object({ name: z.string().min(1) }).strict();
const ConversationId = z.object({ id: z.string().min(1) }).strict();
/** A name the caller gives a tool call, resource read or prompt it starts, to cancel it with calls.cancel. */
const RequestId = z.string().min(1).max(100);
/** Secret values typed into the server editor: to the keychain, never into the registry. */
const SecretValues = z.array(z.object({ name: z.string().regex(SECRET_NAME), value: z.string().min(1).max(65_536) }).strict()).max(64);

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
  /** Fetches a server's stale lists again now (the card's Retry); its summary says whether they still are. */
  'servers.retryLists': command(ServerName, ServerSummary),
  /**
   * Adds a server to the registry (saved atomically) and returns it. `secrets`: values the person
   * typed for it, stored in the keychain first; they belong to this server (the config references
   * each as ${secret:NAME}). In the app an enabled server starts at once, whichever way it was added.
   */
  'servers.add': command(
    z.object({ name: z.string().trim().min(1).max(100), config: ServerConfigData, secrets: SecretValues.optional() }).strict(),
    ServerSummary,
  ),
  /** Replaces a server's configuration (optionally renaming it); a running server restarts (a changed launch asks first). */
  'servers.update': command(
    z.object({ name: z.string().min(1), config: ServerConfigData, newName: z.string().trim().min(1).max(100).optional(), secrets: SecretValues.optional() }).strict(),
    ServerSummary,
  ),
  'servers.remove': command(ServerName, z.object({ removed: z.boolean() })),
  /** The last lines a stdio server wrote to stderr (secrets masked); empty for a remote server. */
  'servers.stderr': command(ServerName, z.object({ text: z.string() })),
  /** Servers that could not be started since the Host began, oldest first (also sent live as servers.launchFailed). */
  'servers.launchFailures': command(Empty, z.array(LaunchFailureData)),
  /** Signs in to a remote server (OAuth): opens the sign-in page, waits for it, reconnects; the server's new summary. */
  'auth.login': command(ServerName, ServerSummary),
  /** Forgets a remote server's tokens and client registration (revoked at the authorization server when possible). */
  'auth.logout': command(ServerName, z.object({ removed: z.boolean(), revoked: z.boolean() })),
  /**
   * Whether a person's sign-in applies to this server (a remote one without a fixed Authorization
   * header or a machine grant) and whether Harbor holds one for it: the app shows Sign in or Sign out.
   */
  'auth.status': command(ServerName, z.object({ usesSignIn: z.boolean(), signedIn: z.boolean() })),
  'registry.get': command(Empty, RegistryView),
  /**
   * Raw JSON editing: validated first; nothing is written when there are problems. Once saved,
   * which servers started (added, turned on, or retried after an error) and which restarted.
   */
  'registry.save': command(
    // hash: registry.get's, of the text the editor loaded; a file changed since is refused (CONFIG_IO, "changed since you opened it: reload").
    z.object({ text: z.string().max(5_000_000), hash: z.string().max(128).optional() }).strict(),
    z.object({
      saved: z.boolean(),
      problems: z.array(RegistryProblem),
      started: z.array(z.string()).optional(),
      restarted: z.array(z.string()).optional(),
      /** The hash of the file as saved: the next save of the same editor sends it. */
      hash: z.string().optional(),
    }),
  ),
  /** The raw JSON editor's check as the person types: the problems `registry.save` would report, each at its line; writes nothing. */
  'registry.check': command(z.object({ text: z.string().max(5_000_000) }).strict(), z.object({ problems: z.array(RegistryProblem) })),
  /** The usual config files of Claude Desktop, VS Code and Cursor here, and which exist. */
  'registry.importSources': command(Empty, z.array(ImportSourceData)),
  /** What importing a file would do (added, clashes, secrets moving to the keychain, inputs referenced); writes nothing. */
  'registry.importPreview': command(ImportRequest, ImportReportData),
  /** Imports a file exactly as `harbor import` does: secrets to the keychain first, then the registry. */
  'registry.importApply': command(ImportRequest, ImportReportData),
  /** The person approved launching this server as configured now (persisted); it starts. */
  'servers.approveLaunch': command(ServerName, ServerSummary),
  'catalog.get': command(ServerName, CatalogView),
  /** Turns a tool on or off (the registry's disabledTools); a disabled tool is never offered to the model. */
  'tools.setEnabled': command(
    z.object({ server: z.string().min(1), tool: z.string().min(1), enabled: z.boolean() }).strict(),
    z.object({ disabledTools: z.array(z.string()) }),
  ),
  /**
   * Searches the tools of every server Harbor knows (connected, or stopped with their last tool
   * list), best match first: the same ranking as the chat's search_tools and `harbor tools --search`.
   * `server` keeps one server's tools; `asYouType` ranks a search box's text (every word must
   * match, the last one as a prefix), as the Tools page does.
   */
  'tools.search': command(
    z
      .object({
        query: z.string().max(1_000),
        limit: z.number().int().min(1).max(2_000).optional(),
        server: z.string().min(1).optional(),
        asYouType: z.boolean().optional(),
      })
      .strict(),
    z.array(ToolSearchHit),
  ),
  /** Whether the model is offered each tool of a server, and why not (optionally within a toolset). */
  'tools.offer': command(z.object({ server: z.string().min(1), toolset: z.string().min(1).optional() }).strict(), z.array(ToolOfferView)),
  'tools.call': command(
    z
      .object({ server: z.string().min(1), tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional(), requestId: RequestId.optional() })
      .strict(),
    McpObject,
  ),
  'resources.read': command(z.object({ server: z.string().min(1), uri: z.string().min(1), requestId: RequestId.optional() }).strict(), McpObject),
  'prompts.get': command(
    z
      .object({ server: z.string().min(1), name: z.string().min(1), arguments: z.record(z.string(), z.string()).optional(), requestId: RequestId.optional() })
      .strict(),
    McpObject,
  ),
  /**
   * Stops a tool call, resource read or prompt started with this requestId (the Stop button): the
   * server is told (notifications/cancelled, or the HTTP request's stream closes) and the request
   * ends with CANCELLED. False when nothing with that id is running (it has already finished).
   */
  'calls.cancel': command(z.object({ requestId: RequestId }).strict(), z.object({ cancelled: z.boolean() })),
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
  /** The Host's recent server events (starts, stops, errors, catalog changes), oldest first: they outlive a reload. */
  'serverEvents.list': command(z.object({ afterSeq: z.number().int().optional() }).strict(), z.array(ServerEventData)),
  /** Questions still waiting for the person (a reloaded window shows them again). */
  'elicitation.pending': command(Empty, z.array(ElicitationRequestData)),
  'elicitation.respond': command(
    z.object({ id: z.string(), action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string(), z.unknown()).optional() }).strict(),
    z.object({ accepted: z.boolean() }),
  ),
  /** Sampling reviews still waiting for the person (a reloaded window shows them again). */
  'sampling.pending': command(Empty, z.array(SamplingRequestData)),
  /** Approves (possibly edited) or denies one stage of a sampling review; an edit that does not fit is BAD_REQUEST. */
  'sampling.respond': command(SamplingAnswer, z.object({ accepted: z.boolean() })),
  /** A server's log messages (newest last), the level the person set, and its stderr. */
  'logs.list': command(z.object({ server: z.string().min(1) }).strict(), ServerLogsView),
  /** Sets the least severe level a server should send (null: the server's own default); saved in the registry. */
  'logs.setLevel': command(z.object({ server: z.string().min(1), level: LogLevel.nullable() }).strict(), ServerLogsView),
  /** The resources subscribed to on a server; an update of one is re-read and shown as changed. */
  'resources.subscriptions': command(z.object({ server: z.string().min(1) }).strict(), ResourceSubscriptionsView),
  'resources.subscribe': command(z.object({ server: z.string().min(1), uri: z.string().min(1) }).strict(), ResourceSubscriptionsView),
  'resources.unsubscribe': command(z.object({ server: z.string().min(1), uri: z.string().min(1) }).strict(), ResourceSubscriptionsView),
  /** The desktop app's folder picker (for a server's roots); elsewhere unsupported. */
  'app.pickFolder': command(Empty, z.object({ supported: z.boolean(), path: z.string().optional() })),
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
  /** Sets a toolset's entries ("SERVER/TOOL", "SERVER/*"), or removes it (null): one registry edit. */
  'settings.setToolset': command(
    z.object({ name: z.string().trim().min(1).max(100), entries: z.array(z.string().max(500)).max(2_000).nullable() }).strict(),
    SettingsData,
  ),
  /** One tiny real request to the saved model: whether it answers, how fast, and what. */
  'settings.testModel': command(Empty, z.object({ model: z.string(), ms: z.number().int(), reply: z.string() })),
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
        /** Files from the person's computer: images (for a model that takes them) and text files. */
        files: FileUploads.optional(),
        /**
         * Edit and resend: this message replaces the person's message of that turn (of conversationId),
         * as a new branch beside it; the earlier branch stays reachable (conversations.switchBranch).
         */
        editOf: z.string().min(1).optional(),
        /** Limits the conversation to this toolset from now on (null: every tool again). */
        toolset: z.string().min(1).max(100).nullable().optional(),
      })
      .strict()
      .refine((r) => r.editOf === undefined || r.conversationId !== undefined, { message: 'editOf needs conversationId', path: ['editOf'] }),
    z.object({ conversationId: z.string(), turnId: z.string() }),
  ),
  /** Runs a turn again from the person's same message, as a new branch beside it (the old answer stays reachable). */
  'chat.regenerate': command(
    z.object({ conversationId: z.string().min(1), turnId: z.string().min(1) }).strict(),
    z.object({ conversationId: z.string(), turnId: z.string() }),
  ),
  /** The context meter: what the ready servers' tool definitions cost, and how a turn of this conversation (or a new one) spends its budget. */
  'chat.context': command(z.object({ conversationId: z.string().min(1).optional() }).strict(), ChatContext),
  'chat.stop': command(z.object({ conversationId: z.string().min(1) }).strict(), z.object({ stopped: z.boolean() })),
  'conversations.list': command(Empty, z.array(ConversationSummary)),
  /**
   * A stored conversation. With `fromTurn` (a turn of the branch shown), only that turn and the ones
   * after it: what a turn that just ended changed, without sending the whole conversation again.
   * With `resultsOver`, each tool result whose JSON is longer than that many characters comes as a
   * preview (`result.omitted`), fetched whole by conversations.result when it is needed.
   */
  'conversations.open': command(
    z.object({ id: z.string().min(1), fromTurn: z.string().min(1).optional(), resultsOver: z.number().int().min(1024).optional() }).strict(),
    Conversation,
  ),
  /** One tool call's whole result, from a stored turn of the conversation (a preview's full text). */
  'conversations.result': command(z.object({ id: z.string().min(1), turnId: z.string().min(1), callId: z.string().min(1) }).strict(), ChatToolResult),
  /** Shows (and continues) the branch through this turn: its latest answer below it. */
  'conversations.switchBranch': command(z.object({ id: z.string().min(1), turnId: z.string().min(1) }).strict(), Conversation),
  'conversations.rename': command(z.object({ id: z.string().min(1), title: z.string().trim().min(1).max(200) }).strict(), ConversationSummary),
  /** Limits a conversation's next turns to a toolset of the registry (null: every tool again). */
  'conversations.setToolset': command(z.object({ id: z.string().min(1), toolset: z.string().min(1).max(100).nullable() }).strict(), ConversationSummary),
  'conversations.delete': command(ConversationId, z.object({ deleted: z.boolean() })),
  'conversations.export': command(
    z.object({ id: z.string().min(1), format: z.enum(['markdown', 'json']) }).strict(),
    z.object({ filename: z.string(), mimeType: z.string(), content: z.string() }),
  ),
  // MCP Apps (apps.ts): opening an app, its bridge requests, its audit trail.
  ...appCommands,
  ...sandboxCommands,
  ...doctorCommands,
  ...skillCommands,
  ...harborLogCommands,
  ...taskCommands,
  ...installCommands,
} satisfies Record<string, CommandSpec>;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandRequest<K extends CommandName> = z.input<Commands[K]['request']>;
export type CommandResponse<K extends CommandName> = z.output<Commands[K]['response']>;
