import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { ModelMessage } from 'ai';
import type { ChatFile, ChatToolResult, HarborErrorData, ToolCallStatus, TurnStatus } from '../../../../preload/contract';
import { HarborError } from '../../errors';
import { inTransaction } from './database';

export interface NewToolCall {
  readonly turnId: string;
  readonly step: number;
  readonly callId: string;
  readonly name: string;
  readonly server?: string;
  readonly tool?: string;
  readonly arguments: unknown;
}

/** A part of the person's message after their own text: an attachment's text, or an image for the model. */
export type UserPart = { readonly type: 'text'; readonly text: string } | { readonly type: 'file'; readonly data: string; readonly mediaType: string };

export interface StartTurnOptions {
  /** Files the message carries, as the conversation shows them (their content is in the parts). */
  readonly files?: readonly ChatFile[];
  /** The turn this one answers: null for a first turn; absent: the end of the branch shown now. */
  readonly parentId?: string | null;
}

export interface ToolCallUpdate {
  readonly status: ToolCallStatus;
  readonly server?: string;
  readonly tool?: string;
  readonly approval?: string;
  readonly result?: ChatToolResult;
  readonly error?: HarborErrorData;
  /** How long the call waited for the person's answer so far. */
  readonly waitedMs?: number;
}

/**
 * Writing conversations: messages as the model saw them, every tool call with its arguments, full
 * result, approval and timings. Each model step is one transaction (the assistant message with its
 * tool calls and the tool results together), so a crash loses at most the step in flight and the
 * history always makes a valid prompt.
 */
export class ConversationRepository {
  constructor(
    private readonly db: DatabaseSync,
    private readonly now: () => number,
  ) {}

  /** A new, empty conversation; returns its id. */
  createConversation(title: string): string {
    const id = randomUUID();
    const now = this.now();
    this.db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(id, title, now, now);
    return id;
  }

  rename(id: string, title: string): void {
    const changes = this.db.prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?').run(title.trim(), this.now(), id).changes;
    if (Number(changes) === 0) throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${id}".`);
  }

  /** Deletes a conversation with everything in it; false when there was none. */
  delete(id: string): boolean {
    return Number(this.db.prepare('DELETE FROM conversations WHERE id = ?').run(id).changes) > 0;
  }

  /** The toolset the conversation is limited to; null: every tool. */
  setToolset(id: string, toolset: string | null): void {
    const changes = this.db.prepare('UPDATE conversations SET toolset = ? WHERE id = ?').run(toolset, id).changes;
    if (Number(changes) === 0) throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${id}".`);
  }

  setToolMode(id: string, mode: 'direct' | 'search'): void {
    this.db.prepare('UPDATE conversations SET tool_mode = ? WHERE id = ?').run(mode, id);
  }

  /**
   * Records the person's message and opens a turn for it, in one transaction, at the end of the
   * branch shown (or beside an earlier turn: an edit, a regeneration); the new turn becomes the
   * one shown. Attached resources and files (parts built by attachments.ts and files.ts) follow the
   * person's own text as further parts.
   */
  startTurn(conversationId: string, userText: string, model: string, parts: readonly (string | UserPart)[] = [], options: StartTurnOptions = {}): string {
    const turnId = randomUUID();
    inTransaction(this.db, () => this.insertTurn(conversationId, turnId, this.now(), userText, model, parts, options));
    return turnId;
  }

  /**
   * A new conversation with its first turn, in one transaction: a Harbor killed in between leaves
   * neither, never an empty conversation.
   */
  startConversation(userText: string, model: string, parts: readonly (string | UserPart)[] = [], options: StartTurnOptions = {}): { conversationId: string; turnId: string } {
    const conversationId = randomUUID();
    const turnId = randomUUID();
    const now = this.now();
    inTransaction(this.db, () => {
      this.db.prepare("INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, '', ?, ?)").run(conversationId, now, now);
      this.insertTurn(conversationId, turnId, now, userText, model, parts, options);
    });
    return { conversationId, turnId };
  }

  private insertTurn(conversationId: string, turnId: string, now: number, userText: string, model: string, parts: readonly (string | UserPart)[], options: StartTurnOptions): void {
    const parentId = options.parentId !== undefined ? options.parentId : this.activeTurn(conversationId);
    this.db
      .prepare("INSERT INTO turns (id, conversation_id, parent_id, status, model, owner_pid, started_at) VALUES (?, ?, ?, 'running', ?, ?, ?)")
      .run(turnId, conversationId, parentId, model, process.pid, now);
    const content = parts.length > 0 ? [{ type: 'text', text: userText }, ...parts.map((p) => (typeof p === 'string' ? { type: 'text', text: p } : p))] : userText;
    this.db
      .prepare("INSERT INTO messages (conversation_id, turn_id, step, role, content, files, created_at) VALUES (?, ?, 0, 'user', ?, ?, ?)")
      .run(conversationId, turnId, JSON.stringify(content), options.files?.length ? JSON.stringify(options.files) : null, now);
    const title = userText.replace(/\s+/g, ' ').trim().slice(0, 80);
    this.db
      .prepare("UPDATE conversations SET updated_at = ?, active_turn_id = ?, title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?")
      .run(now, turnId, title, conversationId);
  }

  /** The turn at the end of the branch shown now (the parent of the next message). */
  private activeTurn(conversationId: string): string | null {
    const row = this.db.prepare('SELECT active_turn_id FROM conversations WHERE id = ?').get(conversationId) as { active_turn_id: unknown } | undefined;
    if (typeof row?.active_turn_id === 'string') return row.active_turn_id;
    const newest = this.db.prepare('SELECT id FROM turns WHERE conversation_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1').get(conversationId) as { id: string } | undefined;
    return newest?.id ?? null;
  }

  /** Shows (and continues) the branch ending at `turnId`. */
  setActiveTurn(conversationId: string, turnId: string): void {
    this.db.prepare('UPDATE conversations SET active_turn_id = ? WHERE id = ?').run(turnId, conversationId);
  }

  /** One model step: its assistant message and tool results, atomically. */
  appendStep(conversationId: string, turnId: string, step: number, messages: readonly ModelMessage[]): void {
    const now = this.now();
    inTransaction(this.db, () => {
      const insert = this.db.prepare('INSERT INTO messages (conversation_id, turn_id, step, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)');
      for (const message of messages) insert.run(conversationId, turnId, step, message.role, JSON.stringify(message.content), now);
      this.db.prepare('UPDATE turns SET steps = ? WHERE id = ?').run(step, turnId);
      this.db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, conversationId);
    });
  }

  finishTurn(turnId: string, status: Exclude<TurnStatus, 'running'>, note?: string, error?: HarborErrorData): void {
    this.db
      .prepare('UPDATE turns SET status = ?, ended_at = ?, note = ?, error_code = ?, error_message = ? WHERE id = ?')
      .run(status, this.now(), note ?? null, error?.code ?? null, error?.message ?? null, turnId);
  }

  insertToolCall(conversationId: string, call: NewToolCall): number {
    const result = this.db
      .prepare(
        "INSERT INTO tool_calls (conversation_id, turn_id, step, call_id, name, server, tool, arguments, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
      )
      .run(conversationId, call.turnId, call.step, call.callId, call.name, call.server ?? null, call.tool ?? null, JSON.stringify(call.arguments ?? null), this.now());
    return Number(result.lastInsertRowid);
  }

  updateToolCall(rowId: number, update: ToolCallUpdate): void {
    const final = update.status === 'done' || update.status === 'error';
    this.db
      .prepare(
        `UPDATE tool_calls SET status = ?, server = COALESCE(?, server), tool = COALESCE(?, tool), approval = COALESCE(?, approval),
           result = COALESCE(?, result), error_code = COALESCE(?, error_code), error_message = COALESCE(?, error_message),
           truncated_bytes = COALESCE(?, truncated_bytes), waited_ms = COALESCE(?, waited_ms), ended_at = CASE WHEN ? THEN ? ELSE ended_at END WHERE id = ?`,
      )
      .run(
        update.status,
        update.server ?? null,
        update.tool ?? null,
        update.approval ?? null,
        update.result ? JSON.stringify({ content: update.result.content, structuredContent: update.result.structuredContent, isError: update.result.isError }) : null,
        update.error?.code ?? null,
        update.error?.message ?? null,
        update.result?.truncatedBytes ?? null,
        update.waitedMs ?? null,
        final ? 1 : 0,
        this.now(),
        rowId,
      );
  }
}
