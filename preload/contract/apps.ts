/**
 * MCP Apps: a server's interactive UI (a `ui://` resource) shown in a sandboxed frame. The Host
 * decides each app's policy (CSP, permissions), keeps the app to its own server, and records every
 * request the app makes; the page only draws the frame and relays the bridge.
 */
import { z } from 'zod';
import { McpObject } from './server-views';

/**
 * The one message an app's sandbox proxy adds to the bridge: the app's frame navigated away from
 * its document (to another page), so the proxy removed it. Sent proxy → page only.
 */
export const APP_NAVIGATED_METHOD = 'harbor/app-navigated';

export const AppPermissionName = z.enum(['camera', 'microphone', 'geolocation', 'clipboardWrite']);
export const AppCspKind = z.enum(['connect', 'resource', 'frame', 'baseUri']);

/** What the Host granted one app (and what it refused, with why). */
export const AppPolicyView = z.object({
  /** Granted CSP sources per kind, normalized. Empty lists: nothing beyond the app's own document. */
  csp: z.object({
    connectDomains: z.array(z.string()),
    resourceDomains: z.array(z.string()),
    frameDomains: z.array(z.string()),
    baseUriDomains: z.array(z.string()),
  }),
  refused: z.array(z.object({ kind: AppCspKind, entry: z.string(), reason: z.string() })),
  permissions: z.object({ granted: z.array(AppPermissionName), refused: z.array(AppPermissionName) }),
  /** The app frame's `allow` attribute. */
  allow: z.string(),
  prefersBorder: z.boolean().optional(),
});
export type AppPolicyView = z.infer<typeof AppPolicyView>;

/** An opened app: where its sandbox is served, its document, and what it may do. */
export const AppView = z.object({
  instanceId: z.string(),
  server: z.string(),
  uri: z.string(),
  /** The sandbox proxy for this app, on an origin that is not the page's. */
  sandboxUrl: z.string(),
  html: z.string(),
  /** The tool whose result the app shows (for the app's host context), when opened for a tool. */
  tool: McpObject.optional(),
  policy: AppPolicyView,
});
export type AppView = z.infer<typeof AppView>;

/** Whether a tool renders its results in an app. `known` is false while its server is not connected. */
export const AppToolUi = z.object({ resourceUri: z.string().optional(), known: z.boolean() });
export type AppToolUi = z.infer<typeof AppToolUi>;

/** One line of the apps' audit trail: an app opened, a CSP grant or refusal, a bridge request and how it ended. */
export const AppActivityEntry = z.object({
  seq: z.number().int(),
  at: z.number(),
  server: z.string(),
  instanceId: z.string(),
  uri: z.string(),
  kind: z.enum(['open', 'csp', 'permission', 'request', 'close']),
  /** The bridge method (tools/call, ui/open-link, …) or what was decided (connect-src, camera, …). */
  method: z.string(),
  /** One line: what was asked or granted. */
  detail: z.string(),
  outcome: z.enum(['allowed', 'refused', 'failed', 'info']),
});
export type AppActivityEntry = z.infer<typeof AppActivityEntry>;

const InstanceId = z.string().min(1).max(100);
/** Outcomes the page reports for the requests it settles itself (links, messages, downloads…). */
const PageOutcome = z.enum(['allowed', 'refused', 'failed', 'info']);

export const appCommands = {
  /** Whether a tool has an app, from its server's catalog (a server that is not connected is not started). */
  'apps.forTool': { request: z.object({ server: z.string().min(1), tool: z.string().min(1) }).strict(), response: AppToolUi },
  /** Opens an app: reads its resource (connecting the server), decides its policy, records it. */
  'apps.open': {
    request: z
      .object({
        server: z.string().min(1),
        /** The tool whose app to open (its _meta.ui.resourceUri decides the resource). */
        tool: z.string().min(1).optional(),
        /** Or the ui:// resource itself. */
        uri: z.string().min(1).max(4096).optional(),
        /** The conversation the app appears in: its calls ask consent "for this conversation", its messages go there. */
        conversationId: z.string().min(1).optional(),
        /** The tool call the app shows (the key its model context is kept under). */
        toolCallId: z.string().min(1).max(200).optional(),
      })
      .strict()
      .refine((r) => r.tool !== undefined || r.uri !== undefined, 'Name the tool whose app to open, or its ui:// resource.'),
    response: AppView,
  },
  /** A tool call from an app: its own server only, through the consent gate. */
  'apps.callTool': {
    request: z.object({ instanceId: InstanceId, name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() }).strict(),
    response: McpObject,
  },
  /** A resource read from an app: its own server only. */
  'apps.readResource': { request: z.object({ instanceId: InstanceId, uri: z.string().min(1).max(4096) }).strict(), response: McpObject },
  /** The tools an app may call (its server's tools visible to apps). */
  'apps.listTools': { request: z.object({ instanceId: InstanceId }).strict(), response: z.object({ tools: z.array(McpObject) }) },
  /** Its server's resources and templates. */
  'apps.listResources': {
    request: z.object({ instanceId: InstanceId }).strict(),
    response: z.object({ resources: z.array(McpObject), resourceTemplates: z.array(McpObject) }),
  },
  /** A request the page settled itself (a link, a message, a download, a display mode, a log line): recorded. */
  'apps.record': {
    request: z.object({ instanceId: InstanceId, method: z.string().min(1).max(100), outcome: PageOutcome, detail: z.string().max(2000) }).strict(),
    response: z.object({ recorded: z.boolean() }),
  },
  /** What the app wants the model to know on the conversation's next turns (replaces its previous update). */
  'apps.updateModelContext': {
    request: z.object({ instanceId: InstanceId, content: z.array(z.unknown()).max(100).optional(), structuredContent: z.record(z.string(), z.unknown()).optional() }).strict(),
    response: z.object({ stored: z.boolean() }),
  },
  /** The app's frame is gone (its card left the screen, the conversation closed). */
  'apps.close': { request: z.object({ instanceId: InstanceId }).strict(), response: z.object({ closed: z.boolean() }) },
  /** The apps' audit trail, oldest first (after `afterSeq` when given). */
  'apps.activity': { request: z.object({ afterSeq: z.number().int().optional() }).strict(), response: z.array(AppActivityEntry) },
} as const;

export const appEvents = {
  /** A new line of the apps' audit trail. */
  'apps.activity': AppActivityEntry,
} as const;
