import { z } from 'zod';
import { ChatFile, ChatToolResult, ToolCallStatus, TurnStatus } from '../../../../preload/contract';
import { HarborError } from '../../errors';
import { jsonColumn } from '../../json-column';

/**
 * What each row read back from conversations.db must look like. A row that does not (a damaged
 * file, a hand edit, a bug in an older build) is reported as a HarborError naming the
 * conversation and the column at fault, instead of flowing on as a cast.
 */

const Millis = z.number().int();
const Text = z.string();

/** A column holding JSON text, parsed; `shape` checks what it holds (the one parser, json-column.ts). */
const json = jsonColumn;

export const SummaryRow = z.object({
  id: Text,
  title: Text,
  created_at: Millis,
  updated_at: Millis,
  turn_count: z.number().int(),
  last_status: TurnStatus.nullable(),
  toolset: Text.nullable(),
});
export type SummaryRow = z.infer<typeof SummaryRow>;

export const TurnRow = z.object({
  id: Text,
  parent_id: Text.nullable(),
  status: TurnStatus,
  model: Text.nullable(),
  started_at: Millis,
  ended_at: Millis.nullable(),
  note: Text.nullable(),
  error_code: Text.nullable(),
  error_message: Text.nullable(),
});
export type TurnRow = z.infer<typeof TurnRow>;

/** A message's content as stored: the model's own format, a string or a list of parts. */
const MessageContent = json(z.union([z.string(), z.array(z.unknown())]));

export const MessageRow = z.object({
  turn_id: Text,
  step: z.number().int(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: MessageContent,
  /** A user message's files as shown (their content is in `content`). */
  files: json(z.array(ChatFile)).nullable(),
});
export type MessageRow = z.infer<typeof MessageRow>;

export const ToolCallRow = z.object({
  turn_id: Text,
  step: z.number().int(),
  call_id: Text,
  name: Text,
  server: Text.nullable(),
  tool: Text.nullable(),
  arguments: json(z.unknown()),
  status: ToolCallStatus,
  approval: Text.nullable(),
  result: json(ChatToolResult.omit({ truncatedBytes: true })).nullable(),
  error_code: Text.nullable(),
  error_message: Text.nullable(),
  truncated_bytes: z.number().int(),
  started_at: Millis,
  ended_at: Millis.nullable(),
  /** How long the call waited for the person's answer (absent in older files: no column before schema 4). */
  waited_ms: z.number().int().nonnegative().nullable().optional(),
});
export type ToolCallRow = z.infer<typeof ToolCallRow>;

/**
 * Parses one row, or throws DATA_CORRUPT naming the conversation, the row and what is wrong with
 * it, and how to get past it.
 */
export function parseRow<T extends z.ZodType>(schema: T, row: unknown, where: { readonly path: string; readonly conversation: string; readonly what: string }): z.output<T> {
  const parsed = schema.safeParse(row);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the row'} ${describeIssue(issue)}`);
  throw new HarborError(
    'DATA_CORRUPT',
    `Conversation "${where.conversation}" cannot be read: ${where.what} is damaged (${problems.join('; ')}). ` +
      `Delete this conversation, or restore ${where.path} from a backup.`,
    problems.join('\n'),
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') return `is ${issue.message}`;
  return `is not as Harbor wrote it (${issue.message})`;
}
