import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type { ModelMessage } from 'ai';
import type {
  ChatAttachment,
  ChatItem,
  ChatToolCall,
  ChatToolResult,
  ChatTurn,
  Conversation,
  ConversationSummary,
  HarborErrorData,
  ToolCallStatus,
  TurnStatus,
} from '../../../preload/contract';
import { isErrorCode } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { Disposable } from '../lifecycle';
import { parseAttachmentPart } from './attachments';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  tool_mode TEXT
);
CREATE TABLE IF NOT EXISTS turns (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  model TEXT,
  owner_pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  steps INTEGER NOT NULL DEFAULT 0,
  note TEXT,
  error_code TEXT,
  error_message TEXT
);
CREATE INDEX IF NOT EXISTS turns_by_conversation ON turns(conversation_id, started_at);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
CREATE TABLE IF NOT EXISTS tool_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  call_id TEXT NOT NULL,
  name TEXT NOT NULL,
  server TEXT,
  tool TEXT,
  arguments TEXT NOT NULL,
  status TEXT NOT NULL,
  approval TEXT,
  result TEXT,
  error_code TEXT,
  error_message TEXT,
  truncated_bytes INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX IF NOT EXISTS tool_calls_by_turn ON tool_calls(turn_id, id);
`;

type Row = Record<string, SQLInputValue>;

export interface NewToolCall {
  readonly turnId: string;
  readonly step: number;
  readonly callId: string;
  readonly name: string;
  readonly server?: string;
  readonly tool?: string;
  readonly arguments: unknown;
}

export interface ToolCallUpdate {
  readonly status: ToolCallStatus;
  readonly server?: string;
  readonly tool?: string;
  readonly approval?: string;
  readonly result?: ChatToolResult;
  readonly error?: HarborErrorData;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p): p is { type: 'text'; text: string } => !!p && typeof p === 'object' && (p as { type?: unknown }).type === 'text')
    .map((p) => p.text)
    .join('');
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Conversations in SQLite (node:sqlite, WAL) in the data dir: messages as the model saw them, every
 * tool call with its arguments, full result, approval and timings. Each model step is written in
 * one transaction (the assistant message with its tool calls and the tool results together), so a
 * crash loses at most the step in flight and the history always makes a valid prompt. A turn whose
 * process died is marked "interrupted" the next time the store opens.
 */
export class ConversationStore implements Disposable {
  private db: DatabaseSync | undefined;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  private open(): DatabaseSync {
    if (this.db) return this.db;
    mkdirSync(dirname(this.path), { recursive: true });
    const db = new DatabaseSync(this.path);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
    const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new HarborError('CONFIG_IO', `${this.path} was written by a newer Harbor (schema ${version}). Update Harbor to open these conversations.`);
    }
    db.exec(SCHEMA);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    this.db = db;
    this.recoverInterrupted();
    return db;
  }

  private tx<T>(fn: (db: DatabaseSync) => T): T {
    const db = this.open();
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn(db);
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Turns left "running" by a process that is gone (a crash) are marked interrupted. */
  private recoverInterrupted(): void {
    const db = this.db!;
    const running = db.prepare("SELECT id, owner_pid FROM turns WHERE status = 'running'").all() as { id: string; owner_pid: number }[];
    for (const turn of running) {
      if (isAlive(turn.owner_pid) && turn.owner_pid !== process.pid) continue;
      db.prepare("UPDATE turns SET status = 'interrupted', ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(this.now(), turn.id);
      db.prepare(
        "UPDATE tool_calls SET status = 'error', error_code = 'CANCELLED', error_message = 'Harbor stopped before this call finished.', ended_at = COALESCE(ended_at, ?) WHERE turn_id = ? AND status NOT IN ('done', 'error')",
      ).run(this.now(), turn.id);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Conversations

  createConversation(title = ''): ConversationSummary {
    const id = randomUUID();
    const now = this.now();
    this.open().prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(id, title, now, now);
    return this.summary(id);
  }

  /** An exact id, or a unique prefix of at least 6 characters (the CLI prints short ids). */
  resolveId(idOrPrefix: string): string {
    const db = this.open();
    const exact = db.prepare('SELECT id FROM conversations WHERE id = ?').get(idOrPrefix) as { id: string } | undefined;
    if (exact) return exact.id;
    if (idOrPrefix.length >= 6) {
      const matches = db.prepare("SELECT id FROM conversations WHERE id LIKE ? ESCAPE '\\' LIMIT 2").all(`${idOrPrefix.replace(/[\\%_]/g, '\\$&')}%`) as {
        id: string;
      }[];
      if (matches.length === 1) return matches[0]!.id;
    }
    throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${idOrPrefix}". List them with the app's history, or start a new one without --conversation.`);
  }

  summary(id: string): ConversationSummary {
    const row = this.open()
      .prepare(
        `SELECT c.id, c.title, c.created_at, c.updated_at,
           (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.id) AS turn_count,
           (SELECT status FROM turns t WHERE t.conversation_id = c.id ORDER BY started_at DESC, rowid DESC LIMIT 1) AS last_status
         FROM conversations c WHERE c.id = ?`,
      )
      .get(id) as Row | undefined;
    if (!row) throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${id}".`);
    return toSummary(row);
  }

  list(): ConversationSummary[] {
    const rows = this.open()
      .prepare(
        `SELECT c.id, c.title, c.created_at, c.updated_at,
           (SELECT COUNT(*) FROM turns t WHERE t.conversation_id = c.id) AS turn_count,
           (SELECT status FROM turns t WHERE t.conversation_id = c.id ORDER BY started_at DESC, rowid DESC LIMIT 1) AS last_status
         FROM conversations c ORDER BY c.updated_at DESC, c.rowid DESC`,
      )
      .all() as Row[];
    return rows.map(toSummary);
  }

  rename(id: string, title: string): ConversationSummary {
    const changes = this.open().prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?').run(title.trim(), this.now(), id).changes;
    if (Number(changes) === 0) throw new HarborError('CONVERSATION_NOT_FOUND', `No conversation "${id}".`);
    return this.summary(id);
  }

  delete(id: string): boolean {
    return Number(this.open().prepare('DELETE FROM conversations WHERE id = ?').run(id).changes) > 0;
  }

  toolMode(id: string): 'direct' | 'search' | undefined {
    const row = this.open().prepare('SELECT tool_mode FROM conversations WHERE id = ?').get(id) as { tool_mode: string | null } | undefined;
    return row?.tool_mode === 'search' || row?.tool_mode === 'direct' ? row.tool_mode : undefined;
  }

  setToolMode(id: string, mode: 'direct' | 'search'): void {
    this.open().prepare('UPDATE conversations SET tool_mode = ? WHERE id = ?').run(mode, id);
  }

  // ------------------------------------------------------------------------------------------
  // Turns

  /**
   * Records the person's message and opens a turn for it, in one transaction. Attached resources
   * (text parts built by attachments.ts) follow the person's own text as further parts.
   */
  startTurn(conversationId: string, userText: string, model: string, attachmentParts: readonly string[] = []): string {
    const turnId = randomUUID();
    const now = this.now();
    this.tx((db) => {
      db.prepare("INSERT INTO turns (id, conversation_id, status, model, owner_pid, started_at) VALUES (?, ?, 'running', ?, ?, ?)").run(
        turnId,
        conversationId,
        model,
        process.pid,
        now,
      );
      db.prepare("INSERT INTO messages (conversation_id, turn_id, step, role, content, created_at) VALUES (?, ?, 0, 'user', ?, ?)").run(
        conversationId,
        turnId,
        JSON.stringify(attachmentParts.length > 0 ? [{ type: 'text', text: userText }, ...attachmentParts.map((text) => ({ type: 'text', text }))] : userText),
        now,
      );
      const title = userText.replace(/\s+/g, ' ').trim().slice(0, 80);
      db.prepare("UPDATE conversations SET updated_at = ?, title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?").run(now, title, conversationId);
    });
    return turnId;
  }

  /** One model step: its assistant message and tool results, atomically. */
  appendStep(conversationId: string, turnId: string, step: number, messages: readonly ModelMessage[]): void {
    const now = this.now();
    this.tx((db) => {
      const insert = db.prepare('INSERT INTO messages (conversation_id, turn_id, step, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)');
      for (const message of messages) insert.run(conversationId, turnId, step, message.role, JSON.stringify(message.content), now);
      db.prepare('UPDATE turns SET steps = ? WHERE id = ?').run(step, turnId);
      db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?').run(now, conversationId);
    });
  }

  finishTurn(turnId: string, status: Exclude<TurnStatus, 'running'>, note?: string, error?: HarborErrorData): void {
    this.open()
      .prepare('UPDATE turns SET status = ?, ended_at = ?, note = ?, error_code = ?, error_message = ? WHERE id = ?')
      .run(status, this.now(), note ?? null, error?.code ?? null, error?.message ?? null, turnId);
  }

  insertToolCall(conversationId: string, call: NewToolCall): number {
    const result = this.open()
      .prepare(
        "INSERT INTO tool_calls (conversation_id, turn_id, step, call_id, name, server, tool, arguments, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
      )
      .run(conversationId, call.turnId, call.step, call.callId, call.name, call.server ?? null, call.tool ?? null, JSON.stringify(call.arguments ?? null), this.now());
    return Number(result.lastInsertRowid);
  }

  updateToolCall(rowId: number, update: ToolCallUpdate): void {
    const final = update.status === 'done' || update.status === 'error';
    this.open()
      .prepare(
        `UPDATE tool_calls SET status = ?, server = COALESCE(?, server), tool = COALESCE(?, tool), approval = COALESCE(?, approval),
           result = COALESCE(?, result), error_code = COALESCE(?, error_code), error_message = COALESCE(?, error_message),
           truncated_bytes = COALESCE(?, truncated_bytes), ended_at = CASE WHEN ? THEN ? ELSE ended_at END WHERE id = ?`,
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
        final ? 1 : 0,
        this.now(),
        rowId,
      );
  }

  // ------------------------------------------------------------------------------------------
  // Reading

  /** The conversation as the model sees it: every stored message, in order. */
  history(conversationId: string): ModelMessage[] {
    const rows = this.open().prepare('SELECT role, content FROM messages WHERE conversation_id = ? ORDER BY id').all(conversationId) as {
      role: string;
      content: string;
    }[];
    return rows.map((r) => ({ role: r.role, content: JSON.parse(r.content) as unknown }) as ModelMessage);
  }

  /** The conversation as a person sees it: turns with their messages, tool calls and notes. */
  conversation(id: string): Conversation {
    const summary = this.summary(id);
    const db = this.open();
    const turns = db.prepare('SELECT * FROM turns WHERE conversation_id = ? ORDER BY started_at, rowid').all(id) as Row[];
    const messages = db.prepare('SELECT turn_id, step, role, content FROM messages WHERE conversation_id = ? ORDER BY id').all(id) as Row[];
    const calls = db.prepare('SELECT * FROM tool_calls WHERE conversation_id = ? ORDER BY id').all(id) as Row[];
    const mode = this.toolMode(id);
    return {
      ...summary,
      ...(mode ? { toolMode: mode } : {}),
      turns: turns.map((turn) => buildTurn(turn, messages.filter((m) => m.turn_id === turn.id), calls.filter((c) => c.turn_id === turn.id))),
    };
  }

  dispose(): void {
    this.db?.close();
    this.db = undefined;
  }
}

/** The person's message as shown: their own text, and the resources they attached as chips. */
function userItem(content: unknown): ChatItem {
  if (!Array.isArray(content)) return { kind: 'user', text: textOf(content) };
  const texts = content
    .filter((p): p is { type: 'text'; text: string } => !!p && typeof p === 'object' && (p as { type?: unknown }).type === 'text')
    .map((p) => p.text);
  const attachments = texts.slice(1).map(parseAttachmentPart);
  if (texts.length > 1 && attachments.every((a) => a !== undefined)) {
    return { kind: 'user', text: texts[0] ?? '', attachments: attachments as ChatAttachment[] };
  }
  return { kind: 'user', text: texts.join('') };
}

function toSummary(row: Row): ConversationSummary {
  return {
    id: String(row.id),
    title: String(row.title) || 'New conversation',
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    turnCount: Number(row.turn_count ?? 0),
    ...(row.last_status ? { lastStatus: String(row.last_status) as TurnStatus } : {}),
  };
}

function toCall(row: Row): ChatToolCall {
  const result = parseJson(row.result) as Omit<ChatToolResult, 'truncatedBytes'> | undefined;
  const truncated = Number(row.truncated_bytes ?? 0);
  return {
    id: String(row.call_id),
    name: String(row.name),
    ...(row.server ? { server: String(row.server) } : {}),
    ...(row.tool ? { tool: String(row.tool) } : {}),
    arguments: parseJson(row.arguments) ?? null,
    status: String(row.status) as ToolCallStatus,
    ...(row.approval ? { approval: String(row.approval) } : {}),
    ...(result ? { result: { ...result, ...(truncated > 0 ? { truncatedBytes: truncated } : {}) } } : {}),
    ...(row.error_code ? { error: storedError(row.error_code, row.error_message) } : {}),
    startedAt: Number(row.started_at),
    ...(row.ended_at !== null && row.ended_at !== undefined ? { endedAt: Number(row.ended_at) } : {}),
  };
}

/** An error as stored with a turn or call; a code this Harbor does not know (a newer one wrote it) reads as INTERNAL. */
function storedError(code: unknown, message: unknown): HarborErrorData {
  return { code: isErrorCode(code) ? code : 'INTERNAL', message: String(message ?? '') };
}

function buildTurn(turn: Row, messages: readonly Row[], calls: readonly Row[]): ChatTurn {
  const items: ChatItem[] = [];
  const shown = new Set<Row>();
  for (const message of messages) {
    const content = parseJson(message.content);
    if (message.role === 'user') items.push(userItem(content));
    if (message.role === 'assistant') {
      const text = textOf(content);
      if (text) items.push({ kind: 'assistant', text });
      for (const call of calls.filter((c) => c.step === message.step)) {
        items.push({ kind: 'toolCall', call: toCall(call) });
        shown.add(call);
      }
    }
  }
  // Calls of a step that never completed (stopped or crashed before it was written).
  for (const call of calls) if (!shown.has(call)) items.push({ kind: 'toolCall', call: toCall(call) });
  if (turn.note) items.push({ kind: 'note', text: String(turn.note) });
  return {
    id: String(turn.id),
    status: String(turn.status) as TurnStatus,
    ...(turn.model ? { model: String(turn.model) } : {}),
    startedAt: Number(turn.started_at),
    ...(turn.ended_at !== null && turn.ended_at !== undefined ? { endedAt: Number(turn.ended_at) } : {}),
    ...(turn.error_code ? { error: storedError(turn.error_code, turn.error_message) } : {}),
    items,
  };
}
