/** Chat: conversations, their turns and tool calls, and what the model setup costs in context. */
import { z } from 'zod';
import { ChatFile } from './chat-files';
import { CodeRun } from './code';
import { HarborErrorData } from './errors';
import { TaskStatus } from './tasks';

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
  /**
   * Only in a reply to conversations.open with `resultsOver`: the result was larger, so `content`
   * holds a short preview (one text block) and no structuredContent; conversations.result gives it whole.
   */
  omitted: z.object({ chars: z.number().int().nonnegative(), blocks: z.number().int().nonnegative(), images: z.number().int().nonnegative() }).optional(),
});
export type ChatToolResult = z.infer<typeof ChatToolResult>;

export const ChatToolCall = z.object({
  /** The model's id for the call. */
  id: z.string(),
  /** The name the model used: "server__tool", or search_tools / call_tool / run_code. */
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
  /** How long of startedAt → endedAt the call waited for the person's answer (consent): not run time. */
  waitedMs: z.number().nonnegative().optional(),
  /** run_code: the script, the calls it made, its logs and result (the code card). */
  code: CodeRun.optional(),
  /** The server runs this call as a task: its live status. */
  task: z.object({ taskId: z.string(), status: TaskStatus, statusMessage: z.string().optional() }).optional(),
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

/** A server the conversation used that is not ready for this turn, and why (#28). */
export const ChatMissingServer = z.object({
  server: z.string(),
  /** Harbor's words about it ("… exited before it was ready (it said: "…") — see its log"). */
  reason: z.string(),
});
export type ChatMissingServer = z.infer<typeof ChatMissingServer>;

export const ChatItem = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    text: z.string(),
    attachments: z.array(ChatAttachment).optional(),
    /** Files from the person's computer (images, text files). */
    files: z.array(ChatFile).optional(),
  }),
  z.object({ kind: z.literal('assistant'), text: z.string() }),
  z.object({ kind: z.literal('toolCall'), call: ChatToolCall }),
  /** Harbor's own line (step limit reached, stopped, failed): never sent to the model as its words. */
  z.object({ kind: z.literal('note'), text: z.string() }),
  /** Servers the conversation used that this turn could not offer, and why (shown live, from chat.missing). */
  z.object({ kind: z.literal('missing'), servers: z.array(ChatMissingServer) }),
]);
export type ChatItem = z.infer<typeof ChatItem>;

export const ChatTurn = z.object({
  id: z.string(),
  /**
   * The turns that answer the same point of the conversation (the person edited their message, or
   * had the answer regenerated), oldest first, this one included; absent while there is only one.
   */
  siblings: z.array(z.string()).optional(),
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
  /** The toolset the conversation is limited to (a name in the registry's "toolsets"); absent: every tool. */
  toolset: z.string().optional(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const Conversation = ConversationSummary.extend({
  /** "search": the model was given search_tools/call_tool instead of every tool. */
  toolMode: z.enum(['direct', 'search']).optional(),
  /** The branch shown and continued: from the first turn to the one the person last chose or sent. */
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
  /** Whether the configured model takes images (attached images are refused when it does not). */
  images: z.boolean().optional(),
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
  /** Skills the connected servers publish (loadable ones), and what their index plus load_skill cost. */
  skillCount: z.number().int().optional(),
  skillTokens: z.number().int().optional(),
  /**
   * How a turn's budget is spent: instructions (Harbor's system prompt with the servers'
   * instructions), tools (every definition, or the two search tools once tool search takes over),
   * skills (their index and load_skill), history (the conversation asked about, so far).
   */
  breakdown: z.object({ instructions: z.number().int(), tools: z.number().int(), skills: z.number().int(), history: z.number().int() }).optional(),
});
export type ChatContext = z.infer<typeof ChatContext>;

