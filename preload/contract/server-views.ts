/** What the app shows of a connected server: its catalog, its traffic, its questions to the person. */
import { z } from 'zod';
import { ErrorCode } from './errors';
import { ConnectionState, ServerSummary } from './shared';

/** MCP objects pass through as data; the renderer renders them as text, never as HTML. */
export const McpObject = z.record(z.string(), z.unknown());

/** A tool its server changed since the person approved it: the fields that differ and the definition they approved. */
export const ToolChangeView = z.object({ tool: z.string(), changed: z.array(z.string()), approved: McpObject });
export type ToolChangeView = z.infer<typeof ToolChangeView>;

export const CatalogView = z.object({
  server: z.string(),
  tools: z.array(McpObject),
  resources: z.array(McpObject),
  resourceTemplates: z.array(McpObject),
  prompts: z.array(McpObject),
  /** Tools changed since the person approved them (absent: none). The model sees them as approved until reviewed. */
  toolChanges: z.array(ToolChangeView).optional(),
});
export type CatalogView = z.infer<typeof CatalogView>;

/**
 * Why a tool is not offered to the model as is: turned off by the person, its server not ready,
 * outside the conversation's toolset, deferred (reachable through search_tools: the definitions
 * exceed the budget), needs-approval (changed since approved: offered as approved until reviewed).
 */
export const OfferReason = z.enum(['disabled', 'server-not-ready', 'outside-toolset', 'deferred', 'needs-approval']);
export type OfferReason = z.infer<typeof OfferReason>;

/** Whether the model is offered a tool, and why not (`tool` absent: the server's tools are not known). */
export const ToolOfferView = z.object({
  server: z.string(),
  tool: z.string().optional(),
  offered: z.boolean(),
  reason: OfferReason.nullable(),
  state: ConnectionState.optional(),
});
export type ToolOfferView = z.infer<typeof ToolOfferView>;

/** One match of the Host's tool search: a server's tool, how well it matches, and what it says it does. */
export const ToolSearchHit = z.object({
  server: z.string(),
  /** The tool's name as its server gives it (what tools.call takes). */
  tool: z.string(),
  /** BM25 relevance, higher is better: comparable within one search only. */
  score: z.number(),
  title: z.string().optional(),
  description: z.string().optional(),
});
export type ToolSearchHit = z.infer<typeof ToolSearchHit>;

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

/** A server's state, catalog or configuration changed (the `servers.changed` event). */
export const ServerChange = z.object({
  name: z.string(),
  reason: z.enum(['state', 'catalog', 'resourceUpdated', 'config', 'removed', 'stale']),
  summary: ServerSummary.optional(),
  /** For reason "catalog": which lists changed. */
  changed: z.array(z.enum(['tools', 'resources', 'resourceTemplates', 'prompts'])).optional(),
  /** For reason "resourceUpdated": the resource that changed. */
  uri: z.string().optional(),
});

/** A `servers.changed` event as the Host keeps it for the Activity view: numbered, timed. */
export const ServerEventData = z.object({ seq: z.number().int(), at: z.number(), event: ServerChange });
export type ServerEventData = z.infer<typeof ServerEventData>;

/** The chat tool call a server's question belongs to. */
export const ElicitationOrigin = z.object({
  conversationId: z.string(),
  turnId: z.string(),
  toolCallId: z.string().optional(),
});
export type ElicitationOrigin = z.infer<typeof ElicitationOrigin>;

/**
 * A server asks the person for input (form) or to visit a URL (url mode); answered with
 * elicitation.respond, ended by elicitation.resolved. With conversationId/turnId/toolCallId it
 * belongs to that chat tool call; without, to a request run by hand or to none Harbor can tell.
 */
export const ElicitationRequestData = z.object({
  id: z.string(),
  server: z.string(),
  mode: z.enum(['form', 'url']),
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown()).optional(),
  url: z.string().optional(),
  deadline: z.number(),
  conversationId: z.string().optional(),
  turnId: z.string().optional(),
  toolCallId: z.string().optional(),
});
export type ElicitationRequestData = z.infer<typeof ElicitationRequestData>;

/**
 * A server that could not be started (or stopped being reachable for good): what the Activity
 * view lists, also for failures that happened before the window opened. `seq` orders and
 * identifies them.
 */
export const LaunchFailureData = z.object({
  seq: z.number().int(),
  at: z.number(),
  name: z.string(),
  code: ErrorCode,
  message: z.string(),
  stderrTail: z.string(),
});
export type LaunchFailureData = z.infer<typeof LaunchFailureData>;
