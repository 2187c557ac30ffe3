import type { DatabaseSync } from 'node:sqlite';
import type { ModelMessage } from 'ai';
import type { z } from 'zod';
import { CodeRun, isErrorCode, type ChatAttachment, type ChatFile, type ChatItem, type ChatToolCall, type ChatTurn, type Conversation, type ConversationSummary, type HarborErrorData } from '../../../../preload/contract';
import { HarborError } from '../../errors';
import { parseAttachmentPart } from '../attachments';
import { isFilePart } from '../files';
import { activePath, siblingsOf, type TurnNode } from './branches';
import type { UserPart } from './repository';
import { MessageRow, parseRow, SummaryRow, ToolCallRow, TurnRow } from './rows';
import { taskOutcomeNote } from './task-outcomes';

/** The person's message of a turn, to send again (regenerate) or beside an edit. */
export interface StoredUserMessage {
  readonly text: string;
  /** What followed their text: attachments' text and images. */
  readonly parts: readonly UserPart[];
  readonly files: readonly ChatFile[];
  readonly parentId: string | null;
}

const SUMMARY_COLUMNS = `c.id, c.title, c.created_at, c.updated_at,
  (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.id) AS turn_count,
  (SELECT status FROM turns t WHERE t.conversation_id = c.id ORDER BY started_at DESC, rowid DESC LIMIT 1) AS last_status,
  c.toolset`;

/**
 * Reading conversations back: for the model (its messages, as it saw them) and for a person (turns
 * with their messages, tool calls and notes, in the contract's shapes). Every row is parsed on the
 * way out (rows.ts): a damaged one is a clear error naming its conversation.
 */
export class ConversationViews {
  constructor(
    private readonly db: DatabaseSync,
    private readonly path: string,
  ) {}

  /** An exact id, or a unique prefix of at least 6 characters (the CLI prints short ids). */
  resolveId(idOrPrefix: string): string {
    const exact = this.db.prepare('SELECT id FROM conversations WHERE id = ?').get(idOrPrefix) as { id: string } | undefined;
    if (exact) return exact.id;
    if (idOrPrefix.length >= 6) {
      const pattern = `${idOrPrefix.replace(/[\\%_]/g, '\\$&')}%`;
      const matches = this.db.prepare("SELECT id FROM conversations WHERE id LIKE ? ESCAPE '\\' LIMIT 2").all(pattern) as { id: string }[];
      if (matches.length === 1) return matches[0]!.id;
    }
    throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${idOrPrefix}". List them with the app's history, or start a new one without --conversation.`);
  }

  summary(id: string): ConversationSummary {
    const row = this.db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM conversations c WHERE c.id = ?`).get(id);
    if (!row) throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${id}".`);
    return toSummary(this.parse(SummaryRow, row, id, 'its summary'));
  }

  /** Newest first. */
  list(): ConversationSummary[] {
    const rows = this.db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM conversations c ORDER BY c.updated_at DESC, c.rowid DESC`).all();
    return rows.map((row) => toSummary(this.parse(SummaryRow, row, String(row.id), 'its summary')));
  }

  /** The toolset the conversation is limited to, or undefined (every tool). */
  toolset(id: string): string | undefined {
    const row = this.db.prepare('SELECT toolset FROM conversations WHERE id = ?').get(id) as { toolset: unknown } | undefined;
    return typeof row?.toolset === 'string' ? row.toolset : undefined;
  }

  toolMode(id: string): 'direct' | 'search' | undefined {
    const row = this.db.prepare('SELECT tool_mode FROM conversations WHERE id = ?').get(id) as { tool_mode: unknown } | undefined;
    return row?.tool_mode === 'search' || row?.tool_mode === 'direct' ? row.tool_mode : undefined;
  }

  /** The conversation's turns as a tree, oldest first. */
  turnNodes(conversationId: string): TurnNode[] {
    const rows = this.db.prepare('SELECT id, parent_id FROM turns WHERE conversation_id = ? ORDER BY started_at, rowid').all(conversationId) as { id: string; parent_id: string | null }[];
    return rows.map((r) => ({ id: r.id, parentId: r.parent_id }));
  }

  /** The turns of the branch shown, oldest first. */
  activeTurns(conversationId: string): TurnNode[] {
    const row = this.db.prepare('SELECT active_turn_id FROM conversations WHERE id = ?').get(conversationId) as { active_turn_id: string | null } | undefined;
    return activePath(this.turnNodes(conversationId), row?.active_turn_id ?? null);
  }

  /**
   * The conversation as the model sees it: the stored messages of the branch shown, in order,
   * checked against the model's message format. That format comes with the AI SDK, loaded here on
   * first use: a Host that runs no chat turn (`harbor tools`, `call`, …) never loads it.
   */
  async history(conversationId: string): Promise<ModelMessage[]> {
    const { modelMessageSchema } = await import('ai');
    const branch = new Set(this.activeTurns(conversationId).map((t) => t.id));
    const rows = this.db.prepare('SELECT id, turn_id, role, content FROM messages WHERE conversation_id = ? ORDER BY id').all(conversationId);
    return rows
      .filter((row) => branch.has(String(row.turn_id)))
      .map((row) => {
        const what = `message ${String(row.id)}`;
        const message = this.parse(MessageRow.pick({ role: true, content: true }), row, conversationId, what);
        // Checked, then handed on as stored: the model gets exactly what it produced.
        this.parse(modelMessageSchema, message, conversationId, what);
        return message as ModelMessage;
      });
  }

  /** The person's message that opened `turnId` (of this conversation). */
  userMessage(conversationId: string, turnId: string): StoredUserMessage {
    const turn = this.db.prepare('SELECT parent_id FROM turns WHERE id = ? AND conversation_id = ?').get(turnId, conversationId) as { parent_id: string | null } | undefined;
    const row = this.db.prepare("SELECT id, turn_id, step, role, content, files FROM messages WHERE turn_id = ? AND role = 'user' ORDER BY id LIMIT 1").get(turnId);
    if (!turn || !row) throw new HarborError('CONVERSATION_NOT_FOUND', `The conversation has no turn "${turnId}": reload it and try again.`);
    const message = this.parse(MessageRow, row, conversationId, `message ${String(row.id)}`);
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const [first, ...rest] = content as { type?: unknown; text?: unknown }[];
    return {
      text: typeof first?.text === 'string' ? first.text : '',
      parts: rest.filter(isUserPart),
      files: message.files ?? [],
      parentId: turn.parent_id,
    };
  }

  /**
   * The conversation as a person sees it: the turns of the branch shown, with their messages, tool
   * calls, notes and siblings. From `fromTurn` on: only that turn of the branch and those after it,
   * and only their rows are parsed (a long conversation's tool results are megabytes).
   */
  conversation(id: string, fromTurn?: string): Conversation {
    const summary = this.summary(id);
    const nodes = this.turnNodes(id);
    const siblings = siblingsOf(nodes);
    const active = this.activeTurns(id).map((t) => t.id);
    const from = fromTurn === undefined ? 0 : active.indexOf(fromTurn);
    if (from < 0) throw new HarborError('BAD_REQUEST', `Turn "${fromTurn}" is not on the branch this conversation shows: open it without fromTurn.`);
    const branch = new Set(active.slice(from));
    const turns = this.db.prepare('SELECT * FROM turns WHERE conversation_id = ? ORDER BY started_at, rowid').all(id).filter((row) => branch.has(String(row.id)));
    const messages = this.db.prepare('SELECT id, turn_id, step, role, content, files FROM messages WHERE conversation_id = ? ORDER BY id').all(id).filter((row) => branch.has(String(row.turn_id)));
    const calls = this.db.prepare('SELECT * FROM tool_calls WHERE conversation_id = ? ORDER BY id').all(id).filter((row) => branch.has(String(row.turn_id)));
    const parsedMessages = messages.map((row) => this.parse(MessageRow, row, id, `message ${String(row.id)}`));
    const parsedCalls = calls.map((row) => this.parse(ToolCallRow, row, id, `tool call ${String(row.call_id)}`));
    const mode = this.toolMode(id);
    return {
      ...summary,
      ...(mode ? { toolMode: mode } : {}),
      turns: turns.map((row) => {
        const turn = this.parse(TurnRow, row, id, `turn ${String(row.id)}`);
        const built = buildTurn(
          turn,
          parsedMessages.filter((m) => m.turn_id === turn.id),
          parsedCalls.filter((c) => c.turn_id === turn.id),
        );
        const others = siblings.get(turn.id);
        return others ? { ...built, siblings: others } : built;
      }),
    };
  }

  private parse<T extends z.ZodType>(schema: T, row: unknown, conversation: string, what: string): z.output<T> {
    return parseRow(schema, row, { path: this.path, conversation, what });
  }
}

function toSummary(row: SummaryRow): ConversationSummary {
  return {
    id: row.id,
    title: row.title || 'New conversation',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    turnCount: row.turn_count,
    ...(row.last_status ? { lastStatus: row.last_status } : {}),
    ...(row.toolset ? { toolset: row.toolset } : {}),
  };
}

function textParts(content: string | unknown[]): string[] {
  if (typeof content === 'string') return [content];
  return content
    .filter((p): p is { type: 'text'; text: string } => !!p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string')
    .map((p) => p.text);
}

function isUserPart(part: unknown): part is UserPart {
  const p = part as { type?: unknown; text?: unknown; data?: unknown; mediaType?: unknown } | null;
  return (p?.type === 'text' && typeof p.text === 'string') || (p?.type === 'file' && typeof p.data === 'string' && typeof p.mediaType === 'string');
}

/** The person's message as shown: their own text, the resources they attached as chips, and their files. */
function userItem(message: MessageRow): ChatItem {
  const { content } = message;
  const files = message.files?.length ? { files: message.files } : {};
  if (typeof content === 'string') return { kind: 'user', text: content, ...files };
  const texts = textParts(content);
  // After the person's text: resources (named by their header) and files (shown from the files column).
  const rest = texts.slice(1).filter((t) => !isFilePart(t));
  const attachments = rest.map(parseAttachmentPart);
  if (attachments.every((a) => a !== undefined)) {
    return { kind: 'user', text: texts[0] ?? '', ...(attachments.length ? { attachments: attachments as ChatAttachment[] } : {}), ...files };
  }
  return { kind: 'user', text: texts.join(''), ...files };
}

function toCall(row: ToolCallRow): ChatToolCall {
  // run_code keeps its code card (script, calls, logs, result) as the structured part of its result.
  const card = row.name === 'run_code' ? CodeRun.safeParse(row.result?.structuredContent) : undefined;
  const code = card?.success ? card.data : undefined;
  const stored = code && row.result ? { content: row.result.content, isError: row.result.isError } : row.result;
  return {
    id: row.call_id,
    name: row.name,
    ...(row.server ? { server: row.server } : {}),
    ...(row.tool ? { tool: row.tool } : {}),
    arguments: row.arguments ?? null,
    status: row.status,
    ...(row.approval ? { approval: row.approval } : {}),
    ...(stored ? { result: { ...stored, ...(row.truncated_bytes > 0 ? { truncatedBytes: row.truncated_bytes } : {}) } } : {}),
    ...(row.error_code ? { error: storedError(row.error_code, row.error_message) } : {}),
    startedAt: row.started_at,
    ...(row.ended_at !== null ? { endedAt: row.ended_at } : {}),
    ...(row.waited_ms != null ? { waitedMs: row.waited_ms } : {}),
    ...(code ? { code } : {}),
  };
}

function buildTurn(turn: TurnRow, messages: readonly MessageRow[], calls: readonly ToolCallRow[]): ChatTurn {
  const items: ChatItem[] = [];
  const shown = new Set<ToolCallRow>();
  // A task that ended after the turn: Harbor's note, last (it came last).
  const late: ChatItem[] = [];
  for (const message of messages) {
    const lateNote = message.role === 'user' ? taskOutcomeNote(message.content) : undefined;
    if (lateNote) late.push({ kind: 'note', text: lateNote });
    else if (message.role === 'user') items.push(userItem(message));
    if (message.role === 'assistant') {
      const text = textParts(message.content).join('');
      if (text) items.push({ kind: 'assistant', text });
      for (const call of calls.filter((c) => c.step === message.step)) {
        items.push({ kind: 'toolCall', call: toCall(call) });
        shown.add(call);
      }
    }
  }
  // Calls of a step that never completed (stopped or crashed before it was written).
  for (const call of calls) if (!shown.has(call)) items.push({ kind: 'toolCall', call: toCall(call) });
  if (turn.note) items.push({ kind: 'note', text: turn.note });
  items.push(...late);
  return {
    id: turn.id,
    status: turn.status,
    ...(turn.model ? { model: turn.model } : {}),
    startedAt: turn.started_at,
    ...(turn.ended_at !== null ? { endedAt: turn.ended_at } : {}),
    ...(turn.error_code ? { error: storedError(turn.error_code, turn.error_message) } : {}),
    items,
  };
}

/** An error as stored with a turn or call; a code this Harbor does not know (a newer one wrote it) reads as INTERNAL. */
function storedError(code: string, message: string | null): HarborErrorData {
  return { code: isErrorCode(code) ? code : 'INTERNAL', message: message ?? '' };
}
