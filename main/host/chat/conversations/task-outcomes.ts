import type { DatabaseSync } from 'node:sqlite';
import type { ChatToolResult, HarborErrorData } from '../../../../preload/contract';
import { inTransaction } from './database';

/** A tool call's task that ended after its turn did (Harbor stopped, and followed it again). */
export interface LateTaskOutcome {
  readonly conversationId: string;
  /** The model's id for the call, as the tool call row keeps it. */
  readonly toolCallId: string;
  readonly taskId: string;
  /** The result the card shows, or the error. */
  readonly result?: ChatToolResult;
  readonly error?: HarborErrorData;
  /** What the model reads in the conversation's next turn. */
  readonly modelText: string;
  /** Harbor's line shown in the conversation. */
  readonly note: string;
}

/** Marks the message carrying a late task outcome, so it shows as Harbor's note (not the person's words). */
const MARK = 'harbor';

/** The note a stored message carries when it is a late task outcome (see deliverTaskOutcome), else undefined. */
export function taskOutcomeNote(content: string | readonly unknown[]): string | undefined {
  if (typeof content === 'string') return undefined;
  for (const part of content) {
    const options = (part as { providerOptions?: Record<string, Record<string, unknown>> } | null)?.providerOptions;
    const note = options?.[MARK]?.taskOutcome;
    if (typeof note === 'string') return note;
  }
  return undefined;
}

/**
 * Brings a late task outcome into its conversation, in one transaction: the tool call's card gets
 * the result (or the error), and a message in the call's turn gives the model the result in the
 * next turn. False when the conversation or the call is gone (deleted meanwhile).
 */
export function deliverTaskOutcome(db: DatabaseSync, now: number, outcome: LateTaskOutcome): boolean {
  return inTransaction(db, () => {
    const call = db.prepare('SELECT id, turn_id FROM tool_calls WHERE conversation_id = ? AND call_id = ? ORDER BY id DESC LIMIT 1').get(outcome.conversationId, outcome.toolCallId) as
      | { id: number; turn_id: string }
      | undefined;
    if (!call) return false;
    const result = outcome.result ? JSON.stringify({ content: outcome.result.content, structuredContent: outcome.result.structuredContent, isError: outcome.result.isError }) : null;
    db.prepare('UPDATE tool_calls SET status = ?, result = ?, error_code = ?, error_message = ?, ended_at = ? WHERE id = ?').run(
      outcome.result ? 'done' : 'error',
      result,
      outcome.error?.code ?? null,
      outcome.error?.message ?? null,
      now,
      call.id,
    );
    const content = [{ type: 'text', text: outcome.modelText, providerOptions: { [MARK]: { taskOutcome: outcome.note, taskId: outcome.taskId } } }];
    db.prepare("INSERT INTO messages (conversation_id, turn_id, step, role, content, created_at) VALUES (?, ?, 0, 'user', ?, ?)").run(
      outcome.conversationId,
      call.turn_id,
      JSON.stringify(content),
      now,
    );
    db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, outcome.conversationId);
    return true;
  });
}
