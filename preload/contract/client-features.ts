/** What Harbor offers servers beyond tools: sampling (with the person's review), log messages, resource subscriptions. */
import { z } from 'zod';

export const LogLevel = z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
export type LogLevel = z.infer<typeof LogLevel>;

/** One message of a sampling request as the person reviews it: its text and what else it carries. */
export const SamplingMessageView = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  /** "image (image/png, 12 KB)": content shown by name, not editable. */
  attachments: z.array(z.string()),
});
export type SamplingMessageView = z.infer<typeof SamplingMessageView>;

/**
 * A server asks the model something (sampling) and the person reviews it, in two stages:
 * "request" (approve — possibly edited — or deny before the model runs), then "response" (send
 * the model's answer back — possibly edited — or deny). Answered with sampling.respond, ended by
 * sampling.resolved.
 */
export const SamplingRequestData = z.object({
  id: z.string(),
  server: z.string(),
  stage: z.enum(['request', 'response']),
  deadline: z.number(),
  systemPrompt: z.string().optional(),
  messages: z.array(SamplingMessageView),
  maxTokens: z.number().int(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  /** The server asked for context from "thisServer" or "allServers" (Harbor adds none). */
  includeContext: z.string().optional(),
  /** The server's model hints, in its order. */
  modelHints: z.array(z.string()),
  /** The model Harbor will ask ("provider:model"). */
  model: z.string(),
  /** Stage "response": what the model answered. */
  response: z.object({ text: z.string(), model: z.string(), stopReason: z.string() }).optional(),
  /** What Harbor was doing with the server when it asked ("calling tool …"), when it can tell. */
  during: z.string().optional(),
  conversationId: z.string().optional(),
  turnId: z.string().optional(),
  toolCallId: z.string().optional(),
});
export type SamplingRequestData = z.infer<typeof SamplingRequestData>;

/** The person's answer to one stage of a sampling review. */
export const SamplingAnswer = z
  .object({
    id: z.string(),
    action: z.enum(['approve', 'deny']),
    /** Stage "request": the edited system prompt. */
    systemPrompt: z.string().max(1_000_000).optional(),
    /** Stage "request": the edited text of each message, in order (null keeps a message as it is). */
    messages: z.array(z.string().max(1_000_000).nullable()).max(1000).optional(),
    /** Stage "request": a lower limit than the server's. */
    maxTokens: z.number().int().positive().optional(),
    /** Stage "response": the edited answer. */
    text: z.string().max(1_000_000).optional(),
  })
  .strict();
export type SamplingAnswer = z.infer<typeof SamplingAnswer>;

/** How one sampling request ended, for the Activity view. */
export const SamplingExchange = z.object({
  server: z.string(),
  at: z.number(),
  outcome: z.enum(['sent', 'denied', 'declined', 'failed', 'rateLimited']),
  model: z.string().optional(),
  maxTokens: z.number().int(),
  stopReason: z.string().optional(),
  /** Characters of the answer sent back. */
  answerChars: z.number().int().optional(),
  /** Why it was not sent. */
  reason: z.string().optional(),
  during: z.string().optional(),
});
export type SamplingExchange = z.infer<typeof SamplingExchange>;

/** A log message a server sent (notifications/message). */
export const ServerLogEntry = z.object({
  seq: z.number().int(),
  at: z.number(),
  server: z.string(),
  level: LogLevel,
  logger: z.string().optional(),
  data: z.unknown(),
});
export type ServerLogEntry = z.infer<typeof ServerLogEntry>;

/** One server's log view: its log messages, the level the person set, and its stderr beside them. */
export const ServerLogsView = z.object({
  server: z.string(),
  entries: z.array(ServerLogEntry),
  level: LogLevel.optional(),
  /** Whether the server offers logging (unknown while it is not connected). */
  supported: z.boolean().optional(),
  era: z.enum(['modern', 'legacy']).optional(),
  stderrTail: z.string(),
});
export type ServerLogsView = z.infer<typeof ServerLogsView>;

/** The resources the person subscribed to on a server. */
export const ResourceSubscriptionsView = z.object({
  server: z.string(),
  /** Whether the server offers subscriptions (unknown while it is not connected). */
  supported: z.boolean().optional(),
  uris: z.array(z.string()),
});
export type ResourceSubscriptionsView = z.infer<typeof ResourceSubscriptionsView>;
