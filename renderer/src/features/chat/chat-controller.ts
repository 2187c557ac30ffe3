import type { ChatAttachment, ChatFile, Conversation, ConversationSummary, EventPayload, FileUpload, HarborApi, HarborErrorData, Result } from '../../../../preload/contract';
import { asErrorData, type LoadState } from '../../lib/load-state';
import { nextTask } from '../../lib/next-task';
import { parsePartialJson } from '../apps/partial-json';
import { rememberToolApp } from '../apps/use-tool-app';
import { addBranchTurn, addSentTurn, applyDelta, applyDone, applyMissing, applyToolCall, applyToolInput, isRunning, withStoredTurns, type CallProgress, type PendingUser } from './conversation-model';
import { offerDownload } from './download';
import { RESULTS_OVER } from './whole-results';

export interface ChatState {
  readonly list: LoadState<readonly ConversationSummary[]>;
  /** The open conversation's id; undefined while a new one is being written. */
  readonly openId: string | undefined;
  readonly conversation: LoadState<Conversation>;
  /** Latest progress of running tool calls, by the model's call id. */
  readonly progress: ReadonlyMap<string, CallProgress>;
  /** Arguments of calls to tools with apps the model is still writing, by call id (for their apps). */
  readonly partial: ReadonlyMap<string, Record<string, unknown>>;
  readonly sending: boolean;
  /** Why the last send, stop, rename, delete or export failed. */
  readonly error: HarborErrorData | undefined;
}

type ChatEventName = 'delta' | 'toolCall' | 'toolInput' | 'missing' | 'done';
type ChatEvent = { [K in ChatEventName]: { readonly name: K; readonly payload: EventPayload<`chat.${K}`> } }[ChatEventName];

export interface Attachment extends ChatAttachment {
  /** What the person reads on the chip: the resource's title or name. */
  readonly label: string;
}

/** A file read from the person's computer, ready to go with the next message. */
export interface FileAttachment {
  readonly upload: FileUpload;
  /** How the sent message shows it. */
  readonly file: ChatFile;
}

/** Where the page remembers the open conversation, so a reload reopens it. */
export interface OpenMemory {
  read(): string | undefined;
  write(id: string | undefined): void;
}

type Started = Result<{ conversationId: string; turnId: string }>;

const draft = (): Conversation => ({ id: '', title: 'New conversation', createdAt: Date.now(), updatedAt: Date.now(), turnCount: 0, turns: [] });

/**
 * The Chat page's state: the conversation list, the open conversation with its running turn
 * folded in from chat.* events, and the commands (send, edit, regenerate, switch branch, stop,
 * rename, delete, export). A plain class behind useSyncExternalStore, so it is tested without React.
 */
export class ChatController {
  private state: ChatState = {
    list: { status: 'loading' },
    openId: undefined,
    conversation: { status: 'ready', value: draft() },
    progress: new Map(),
    partial: new Map(),
    sending: false,
    error: undefined,
  };
  private readonly listeners = new Set<() => void>();
  private unsubscribe: (() => void)[] = [];
  /** Events that arrived for a conversation we are still loading, or for a turn we are still starting. */
  private buffered: ChatEvent[] = [];
  private awaitingTurn = false;
  private pending: PendingUser | undefined;
  private openGeneration = 0;
  /** The first turn a skipped reload left as it was live (a turn was already running): the next reload starts there. */
  private unsynced: { readonly generation: number; readonly from: string } | undefined;

  constructor(
    private readonly api: HarborApi,
    private readonly memory?: OpenMemory,
  ) {}

  snapshot = (): ChatState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts listening to the Host, loads the list and reopens the last conversation. Safe to call again after stop(). */
  start(): void {
    if (this.unsubscribe.length > 0) return;
    this.unsubscribe = [
      this.api.on.chat.delta((payload) => this.onEvent({ name: 'delta', payload })),
      this.api.on.chat.toolCall((payload) => this.onEvent({ name: 'toolCall', payload })),
      this.api.on.chat.toolInput((payload) => this.onEvent({ name: 'toolInput', payload })),
      this.api.on.chat.missing((payload) => this.onEvent({ name: 'missing', payload })),
      this.api.on.chat.done((payload) => this.onEvent({ name: 'done', payload })),
      // A task that ended after its turn brought its result into the conversation: show it.
      this.api.on.tasks.changed(({ task }) => {
        if (task.endedAt !== undefined && task.origin && task.origin.conversationId === this.state.openId) void this.reload(task.origin.conversationId);
      }),
    ];
    void this.refreshList();
    const last = this.memory?.read();
    if (last && this.state.openId === undefined && !this.state.sending) void this.open(last, { forgetIfGone: true });
  }

  stop(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
  }

  private set(patch: Partial<ChatState>): void {
    const opened = 'openId' in patch && patch.openId !== this.state.openId;
    this.state = { ...this.state, ...patch };
    if (opened) this.memory?.write(this.state.openId);
    for (const listener of [...this.listeners]) listener();
  }

  private updateConversation(fn: (c: Conversation) => Conversation): void {
    if (this.state.conversation.status !== 'ready') return;
    this.set({ conversation: { status: 'ready', value: fn(this.state.conversation.value) } });
  }

  private get shown(): Conversation | undefined {
    return this.state.conversation.status === 'ready' ? this.state.conversation.value : undefined;
  }

  // ------------------------------------------------------------------------------------------
  // Events

  private onEvent(event: ChatEvent): void {
    const id = event.payload.conversationId;
    if (event.name === 'done') void this.refreshList();
    // A turn's first events can beat the answer that started it: kept until we know where it goes.
    const mine = id === this.state.openId || this.state.openId === undefined;
    if (this.awaitingTurn && mine && !this.shown?.turns.some((t) => t.id === event.payload.turnId)) {
      this.buffered.push(event);
      return;
    }
    if (id !== this.state.openId) return;
    if (this.state.conversation.status === 'loading') {
      this.buffered.push(event);
      return;
    }
    this.apply(event);
  }

  private apply(event: ChatEvent): void {
    switch (event.name) {
      case 'delta':
        this.updateConversation((c) => applyDelta(c, event.payload, this.pending));
        break;
      case 'toolCall': {
        const { call, progress } = event.payload;
        const next = new Map(this.state.progress);
        if (progress && (call.status === 'progress' || call.status === 'running')) next.set(call.id, progress);
        else if (call.status !== 'progress') next.delete(call.id);
        // The call itself carries its complete arguments now.
        const partial = new Map(this.state.partial);
        partial.delete(call.id);
        this.set({ progress: next, partial });
        this.updateConversation((c) => applyToolCall(c, event.payload, this.pending));
        break;
      }
      case 'toolInput': {
        const args = parsePartialJson(event.payload.text);
        if (args) this.set({ partial: new Map(this.state.partial).set(event.payload.toolCallId, args) });
        // Its card, drawn next, shows the app without asking the Host which it is (#32 goal 5).
        if (event.payload.resourceUri) rememberToolApp(this.api, event.payload.server, event.payload.tool, event.payload.resourceUri);
        this.updateConversation((c) => applyToolInput(c, event.payload, this.pending));
        break;
      }
      case 'missing':
        this.updateConversation((c) => applyMissing(c, event.payload, this.pending));
        break;
      case 'done':
        this.pending = undefined;
        if (this.state.partial.size > 0) this.set({ partial: new Map() });
        this.updateConversation((c) => applyDone(c, event.payload));
        // The stored turn carries Harbor's note on how it ended, and the final ids.
        void this.reload(event.payload.conversationId, event.payload.turnId);
        break;
    }
  }

  private replay(id: string): void {
    for (const event of this.buffered.splice(0).filter((e) => e.payload.conversationId === id)) this.apply(event);
  }

  // ------------------------------------------------------------------------------------------
  // Conversations

  async refreshList(): Promise<void> {
    const result = await this.api.conversations.list({});
    if (result.ok) this.set({ list: { status: 'ready', value: result.value } });
    else if (this.state.list.status !== 'ready') this.set({ list: { status: 'error', error: asErrorData(result.error) } });
  }

  /** A fresh, empty conversation (created in the Host by its first message). */
  newConversation(): void {
    this.openGeneration += 1;
    this.buffered = [];
    this.pending = undefined;
    this.set({ openId: undefined, conversation: { status: 'ready', value: draft() }, progress: new Map(), partial: new Map(), error: undefined });
  }

  /** Opens a conversation; `forgetIfGone`: one remembered from before that no longer exists leaves a new one open instead. */
  async open(id: string, options: { readonly forgetIfGone?: boolean } = {}): Promise<void> {
    const generation = ++this.openGeneration;
    this.buffered = [];
    this.pending = undefined;
    this.set({ openId: id, conversation: { status: 'loading' }, progress: new Map(), partial: new Map(), error: undefined });
    // Large tool results come as previews, each fetched whole when needed (whole-results.ts).
    const result = await this.api.conversations.open({ id, resultsOver: RESULTS_OVER });
    // Reading a long conversation (megabytes of tool results) is one task, showing it the next.
    await nextTask();
    if (generation !== this.openGeneration) return;
    if (!result.ok) {
      if (options.forgetIfGone && result.error.code === 'CONVERSATION_NOT_FOUND') return this.newConversation();
      this.set({ conversation: { status: 'error', error: asErrorData(result.error) } });
      return;
    }
    this.set({ conversation: { status: 'ready', value: result.value } });
    this.replay(id);
  }

  /**
   * The stored conversation again. After a turn (`fromTurn`), only that turn is asked for and
   * replaced: a long conversation is megabytes (tool results), and a turn that ended changed only itself.
   */
  private async reload(id: string, fromTurn?: string): Promise<void> {
    const generation = this.openGeneration;
    const from = fromTurn !== undefined && this.unsynced?.generation === generation ? this.unsynced.from : fromTurn;
    const tail = from !== undefined && this.shown?.id === id && this.shown.turns.some((t) => t.id === from) ? from : undefined;
    const result = await this.api.conversations.open(tail ? { id, fromTurn: tail } : { id, resultsOver: RESULTS_OVER });
    // Reading a large reply is one task, showing it the next, not both in one long task.
    await nextTask();
    if (generation !== this.openGeneration || this.state.openId !== id) return;
    // The branch shown changed meanwhile (the turn is not on it any more): the whole conversation then.
    if (!result.ok) return tail ? this.reload(id) : undefined;
    // A turn started again meanwhile: its live state is newer than what the store has; its reload asks from this turn.
    const shown = this.shown;
    if (isRunning(shown) || this.state.sending) return void (this.unsynced = tail ? { generation, from: tail } : this.unsynced);
    this.unsynced = undefined;
    this.set({ conversation: { status: 'ready', value: tail && shown ? withStoredTurns(shown, result.value, tail) : result.value } });
  }

  // ------------------------------------------------------------------------------------------
  // Turns

  /**
   * Starts a turn through `request` and shows it where `place` puts it. Events that arrive before
   * the answer are kept and replayed; a failure leaves everything as it was, with the error shown.
   */
  private async startTurn(pending: PendingUser, request: () => Promise<Started>, place: (c: Conversation, turnId: string) => Conversation): Promise<boolean> {
    if (this.state.sending) return false;
    const generation = this.openGeneration;
    this.pending = pending;
    this.awaitingTurn = true;
    this.set({ sending: true, error: undefined });
    const result = await request();
    this.awaitingTurn = false;
    if (!result.ok) {
      this.pending = undefined;
      this.buffered = [];
      this.set({ sending: false, error: asErrorData(result.error) });
      return false;
    }
    if (generation !== this.openGeneration) {
      // The person moved to another conversation meanwhile: this one runs on, shown in the list.
      this.buffered = [];
      this.set({ sending: false });
      void this.refreshList();
      return true;
    }
    const { conversationId: id, turnId } = result.value;
    this.set({ sending: false, openId: id, conversation: { status: 'ready', value: place({ ...(this.shown ?? draft()), id }, turnId) } });
    this.replay(id);
    void this.refreshList();
    return true;
  }

  /** Sends the person's message (with the resources and files they attached) to the open conversation. */
  async send(text: string, attachments: readonly Attachment[] = [], files: readonly FileAttachment[] = [], toolset?: string): Promise<boolean> {
    const trimmed = text.trim();
    if (!trimmed) return false;
    const conversationId = this.state.openId;
    const pending: PendingUser = {
      text: trimmed,
      ...(attachments.length ? { attachments: attachments.map(({ server, uri, mimeType }) => ({ server, uri, ...(mimeType ? { mimeType } : {}) })) } : {}),
      ...(files.length ? { files: files.map((f) => f.file) } : {}),
    };
    return this.startTurn(
      pending,
      () =>
        this.api.chat.send({
          text: trimmed,
          ...(conversationId ? { conversationId } : toolset ? { toolset } : {}),
          ...(attachments.length ? { attachments: attachments.map(({ server, uri }) => ({ server, uri })) } : {}),
          ...(files.length ? { files: files.map((f) => f.upload) } : {}),
        }),
      (c, turnId) => addSentTurn(c, turnId, pending),
    );
  }

  /** Edit and resend: a new message in place of the one of `turnId`, as a branch beside it. */
  async edit(turnId: string, text: string): Promise<boolean> {
    const conversationId = this.state.openId;
    const original = this.userOf(turnId);
    const trimmed = text.trim();
    if (!conversationId || !original || !trimmed) return false;
    const pending: PendingUser = { ...original, text: trimmed };
    return this.startTurn(
      pending,
      () => this.api.chat.send({ conversationId, editOf: turnId, text: trimmed }),
      (c, id) => addBranchTurn(c, turnId, id, pending),
    );
  }

  /** Regenerate: the same message of `turnId` answered again, as a branch beside the old answer. */
  async regenerate(turnId: string): Promise<boolean> {
    const conversationId = this.state.openId;
    const original = this.userOf(turnId);
    if (!conversationId || !original) return false;
    return this.startTurn(
      original,
      () => this.api.chat.regenerate({ conversationId, turnId }),
      (c, id) => addBranchTurn(c, turnId, id, original),
    );
  }

  /** Shows the branch through `turnId` (one of a turn's siblings). */
  async switchBranch(turnId: string): Promise<boolean> {
    const id = this.state.openId;
    if (!id || isRunning(this.shown)) return false;
    const generation = this.openGeneration;
    const result = await this.api.conversations.switchBranch({ id, turnId });
    if (generation !== this.openGeneration) return false;
    if (!result.ok) {
      this.set({ error: asErrorData(result.error) });
      return false;
    }
    this.set({ conversation: { status: 'ready', value: result.value }, error: undefined });
    return true;
  }

  private userOf(turnId: string): PendingUser | undefined {
    const item = this.shown?.turns.find((t) => t.id === turnId)?.items.find((i) => i.kind === 'user');
    if (item?.kind !== 'user') return undefined;
    return { text: item.text, ...(item.attachments ? { attachments: item.attachments } : {}), ...(item.files ? { files: item.files } : {}) };
  }

  /** Stop: the Host cancels the model stream and every tool call in flight. */
  async stopTurn(): Promise<void> {
    const id = this.state.openId;
    if (!id) return;
    const result = await this.api.chat.stop({ conversationId: id });
    if (!result.ok) this.set({ error: asErrorData(result.error) });
  }

  // ------------------------------------------------------------------------------------------
  // Conversation commands

  async rename(id: string, title: string): Promise<boolean> {
    const result = await this.api.conversations.rename({ id, title });
    if (!result.ok) {
      this.set({ error: asErrorData(result.error) });
      return false;
    }
    if (this.state.openId === id) this.updateConversation((c) => ({ ...c, title: result.value.title }));
    await this.refreshList();
    return true;
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.api.conversations.delete({ id });
    if (!result.ok) {
      this.set({ error: asErrorData(result.error) });
      return false;
    }
    if (this.state.openId === id) this.newConversation();
    await this.refreshList();
    return true;
  }

  /** Offers the conversation as a file (Markdown for people, JSON for the full record). */
  async exportAs(id: string, format: 'markdown' | 'json'): Promise<boolean> {
    const result = await this.api.conversations.export({ id, format });
    if (!result.ok) {
      this.set({ error: asErrorData(result.error) });
      return false;
    }
    offerDownload(result.value.filename, result.value.mimeType, result.value.content);
    return true;
  }

  dismissError(): void {
    this.set({ error: undefined });
  }
}
