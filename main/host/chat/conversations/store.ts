import type { DatabaseSync } from 'node:sqlite';
import type { ModelMessage } from 'ai';
import type { Conversation, ConversationSummary, HarborErrorData, TurnStatus } from '../../../../preload/contract';
import { HarborError } from '../../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../../lifecycle';
import { newestLeaf } from './branches';
import { openConversationDatabase } from './database';
import { ConversationRepository, type NewToolCall, type StartTurnOptions, type ToolCallUpdate, type UserPart } from './repository';
import { deliverTaskOutcome, type LateTaskOutcome } from './task-outcomes';
import { ConversationViews, type StoredUserMessage } from './views';

export type { NewToolCall, StartTurnOptions, ToolCallUpdate, UserPart } from './repository';
export type { StoredUserMessage } from './views';

interface Opened {
  readonly db: DatabaseSync;
  readonly writes: ConversationRepository;
  readonly reads: ConversationViews;
}

/**
 * Conversations in SQLite (node:sqlite, WAL) in the data dir, opened on first use: the schema and
 * crash recovery (database.ts), writes (repository.ts) and reads in the contract's shapes
 * (views.ts). A turn whose process died is marked "interrupted" the next time the store opens.
 */
export class ConversationStore implements Disposable {
  private opened: Opened | undefined;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {
    trackDisposable(this);
  }

  private open(): Opened {
    if (!this.opened) {
      const db = openConversationDatabase(this.path, this.now);
      this.opened = { db, writes: new ConversationRepository(db, this.now), reads: new ConversationViews(db, this.path) };
    }
    return this.opened;
  }

  private get writes(): ConversationRepository {
    return this.open().writes;
  }

  private get reads(): ConversationViews {
    return this.open().reads;
  }

  // Conversations

  createConversation(title = ''): ConversationSummary {
    return this.reads.summary(this.writes.createConversation(title));
  }

  /** An exact id, or a unique prefix of at least 6 characters (the CLI prints short ids). */
  resolveId(idOrPrefix: string): string {
    return this.reads.resolveId(idOrPrefix);
  }

  summary(id: string): ConversationSummary {
    return this.reads.summary(id);
  }

  list(): ConversationSummary[] {
    return this.reads.list();
  }

  rename(id: string, title: string): ConversationSummary {
    this.writes.rename(id, title);
    return this.reads.summary(id);
  }

  delete(id: string): boolean {
    return this.writes.delete(id);
  }

  toolMode(id: string): 'direct' | 'search' | undefined {
    return this.reads.toolMode(id);
  }

  setToolMode(id: string, mode: 'direct' | 'search'): void {
    this.writes.setToolMode(id, mode);
  }

  toolset(id: string): string | undefined {
    return this.reads.toolset(id);
  }

  /** The toolset a conversation is limited to (the registry's name), or none (every tool). */
  setToolset(id: string, toolset: string | null): ConversationSummary {
    this.writes.setToolset(id, toolset);
    return this.reads.summary(id);
  }

  // Turns

  /** Opens a turn for the person's message: at the end of the branch shown, or where `options.parentId` says. */
  startTurn(conversationId: string, userText: string, model: string, parts: readonly (string | UserPart)[] = [], options: StartTurnOptions = {}): string {
    return this.writes.startTurn(conversationId, userText, model, parts, options);
  }

  /** A new conversation and its first turn, written together (repository.ts). */
  startConversation(userText: string, model: string, parts: readonly (string | UserPart)[] = [], options: StartTurnOptions = {}): { conversationId: string; turnId: string } {
    return this.writes.startConversation(userText, model, parts, options);
  }

  /** The person's message that opened a turn, to send it again or beside an edit. */
  userMessage(conversationId: string, turnId: string): StoredUserMessage {
    return this.reads.userMessage(conversationId, turnId);
  }

  /** Shows the branch through `turnId` (down its newest answers), which the next message continues. */
  switchBranch(conversationId: string, turnId: string): void {
    const turns = this.reads.turnNodes(conversationId);
    if (!turns.some((t) => t.id === turnId)) throw new HarborError('CONVERSATION_NOT_FOUND', `The conversation has no turn "${turnId}": reload it and try again.`);
    this.writes.setActiveTurn(conversationId, newestLeaf(turns, turnId));
  }

  appendStep(conversationId: string, turnId: string, step: number, messages: readonly ModelMessage[]): void {
    this.writes.appendStep(conversationId, turnId, step, messages);
  }

  finishTurn(turnId: string, status: Exclude<TurnStatus, 'running'>, note?: string, error?: HarborErrorData): void {
    this.writes.finishTurn(turnId, status, note, error);
  }

  insertToolCall(conversationId: string, call: NewToolCall): number {
    return this.writes.insertToolCall(conversationId, call);
  }

  updateToolCall(rowId: number, update: ToolCallUpdate): void {
    this.writes.updateToolCall(rowId, update);
  }

  /** A tool call's task ended after its turn: its card gets the outcome, and the model reads it in the next turn. */
  deliverTaskOutcome(outcome: LateTaskOutcome): boolean {
    return deliverTaskOutcome(this.open().db, this.now(), outcome);
  }

  // Reading

  /** The conversation as the model sees it: the stored messages of the branch shown, in order. */
  history(conversationId: string): Promise<ModelMessage[]> {
    return this.reads.history(conversationId);
  }

  /** The conversation as a person sees it: the branch shown (from `fromTurn` on), turns with their messages, tool calls, notes and siblings. */
  conversation(id: string, fromTurn?: string): Conversation {
    return this.reads.conversation(id, fromTurn);
  }

  dispose(): void {
    markAsDisposed(this);
    this.opened?.db.close();
    this.opened = undefined;
  }
}
