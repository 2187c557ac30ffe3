import type { ChatAttachment, ChatFile, ChatItem, ChatToolCall, ChatTurn, Conversation, EventPayload } from '../../../../preload/contract';

/**
 * The open conversation as the page shows it: what conversations.open returned, with the live
 * chat.* events of a running turn folded in. Pure functions over immutable values, so a change
 * touches only the items it changes (rows that did not change keep their identity and do not
 * re-render).
 */

export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The person's message of a turn we started but have not heard back about yet. */
export interface PendingUser {
  readonly text: string;
  readonly attachments?: readonly ChatAttachment[];
  readonly files?: readonly ChatFile[];
}

function userItem(pending: PendingUser | undefined): ChatItem[] {
  if (!pending) return [];
  return [
    {
      kind: 'user',
      text: pending.text,
      ...(pending.attachments?.length ? { attachments: [...pending.attachments] } : {}),
      ...(pending.files?.length ? { files: [...pending.files] } : {}),
    },
  ];
}

function withTurn(conversation: Conversation, turnId: string, pending: PendingUser | undefined, update: (turn: ChatTurn) => ChatTurn): Conversation {
  const index = conversation.turns.findIndex((t) => t.id === turnId);
  if (index < 0) {
    const fresh: ChatTurn = { id: turnId, status: 'running', startedAt: Date.now(), items: userItem(pending) };
    return { ...conversation, turns: [...conversation.turns, update(fresh)] };
  }
  const turns = [...conversation.turns];
  turns[index] = update(turns[index]!);
  return { ...conversation, turns };
}

/** Starts showing a turn the person just sent (before any event of it arrived). */
export function addSentTurn(conversation: Conversation, turnId: string, pending: PendingUser): Conversation {
  return withTurn(conversation, turnId, pending, (turn) => turn);
}

/**
 * Starts showing a turn that replaces `replacedId` (an edit, a regeneration): the branch shown
 * ends at the new turn, which lists the old one among its siblings.
 */
export function addBranchTurn(conversation: Conversation, replacedId: string, turnId: string, pending: PendingUser): Conversation {
  const index = conversation.turns.findIndex((t) => t.id === replacedId);
  if (index < 0) return addSentTurn(conversation, turnId, pending);
  const replaced = conversation.turns[index]!;
  const fresh: ChatTurn = { id: turnId, status: 'running', startedAt: Date.now(), items: userItem(pending), siblings: [...(replaced.siblings ?? [replaced.id]), turnId] };
  return { ...conversation, turns: [...conversation.turns.slice(0, index), fresh] };
}

/** Streamed text: appended to the turn's last assistant item, or a new one after a tool call. */
export function applyDelta(conversation: Conversation, event: EventPayload<'chat.delta'>, pending?: PendingUser): Conversation {
  return withTurn(conversation, event.turnId, pending, (turn) => {
    const items = [...turn.items];
    const last = items.at(-1);
    if (last?.kind === 'assistant') items[items.length - 1] = { kind: 'assistant', text: last.text + event.text };
    else items.push({ kind: 'assistant', text: event.text });
    return { ...turn, items };
  });
}

/** A tool call changed state: replaces its card (by the model's call id) or adds one. */
export function applyToolCall(conversation: Conversation, event: EventPayload<'chat.toolCall'>, pending?: PendingUser): Conversation {
  return withTurn(conversation, event.turnId, pending, (turn) => {
    const items = [...turn.items];
    const index = items.findIndex((i) => i.kind === 'toolCall' && i.call.id === event.call.id);
    const item: ChatItem = { kind: 'toolCall', call: event.call };
    if (index >= 0) items[index] = item;
    else items.push(item);
    return { ...turn, items };
  });
}

/**
 * The model is still writing a call to a tool with an app: its card appears at once (pending), so
 * the app can show the arguments as they come. The call itself replaces it when it arrives.
 */
export function applyToolInput(conversation: Conversation, event: EventPayload<'chat.toolInput'>, pending?: PendingUser): Conversation {
  return withTurn(conversation, event.turnId, pending, (turn) => {
    if (turn.items.some((i) => i.kind === 'toolCall' && i.call.id === event.toolCallId)) return turn;
    const call: ChatToolCall = { id: event.toolCallId, name: event.tool, server: event.server, tool: event.tool, arguments: {}, status: 'pending', startedAt: Date.now() };
    return { ...turn, items: [...turn.items, { kind: 'toolCall', call }] };
  });
}

/**
 * Servers the conversation used that this turn cannot offer (chat.missing): said right after the
 * person's message, before the answer.
 */
export function applyMissing(conversation: Conversation, event: EventPayload<'chat.missing'>, pending?: PendingUser): Conversation {
  return withTurn(conversation, event.turnId, pending, (turn) => ({ ...turn, items: withMissing(turn.items, { kind: 'missing', servers: event.servers }) }));
}

function withMissing(items: readonly ChatItem[], missing: ChatItem): ChatItem[] {
  const at = items.findLastIndex((i) => i.kind === 'user') + 1;
  return [...items.slice(0, at), missing, ...items.slice(at).filter((i) => i.kind !== 'missing')];
}

/** The turn ended. The page then reloads the stored conversation, which also carries Harbor's note. */
export function applyDone(conversation: Conversation, event: EventPayload<'chat.done'>): Conversation {
  return withTurn(conversation, event.turnId, undefined, (turn) => ({
    ...turn,
    status: event.status,
    endedAt: Date.now(),
    ...(event.error ? { error: event.error } : {}),
  }));
}

/**
 * The conversation shown, its turns from `fromTurn` on replaced by the stored ones (what
 * conversations.open with fromTurn answers): the turns before it are kept as they are shown. A reply
 * that does not start at that turn is a whole conversation, taken as it is.
 */
export function withStoredTurns(shown: Conversation, stored: Conversation, fromTurn: string): Conversation {
  const at = shown.turns.findIndex((t) => t.id === fromTurn);
  if (at < 0 || stored.turns[0]?.id !== fromTurn) return stored;
  // What was missing is said live only (the stored turn does not keep it): it stays on the turn it was said for.
  const turns = stored.turns.map((turn) => {
    const missing = shown.turns.find((t) => t.id === turn.id)?.items.find((i) => i.kind === 'missing');
    return missing && !turn.items.some((i) => i.kind === 'missing') ? { ...turn, items: withMissing(turn.items, missing) } : turn;
  });
  return { ...stored, turns: [...shown.turns.slice(0, at), ...turns] };
}

export function isRunning(conversation: Conversation | undefined): boolean {
  return conversation?.turns.at(-1)?.status === 'running';
}

/** One row of the message list. */
export type Row =
  | {
      readonly key: string;
      readonly kind: 'item';
      readonly item: ChatItem;
      readonly turnId: string;
      /** The person's message of a turn with siblings: the turns to switch among (‹ 1/2 ›). */
      readonly branch?: readonly string[];
      /** The last words of a finished turn: it can be regenerated from here. */
      readonly regenerate?: boolean;
    }
  | { readonly key: string; readonly kind: 'working'; readonly turnId: string }
  | { readonly key: string; readonly kind: 'turnError'; readonly turn: ChatTurn };

/**
 * Each turn's rows, kept while the turn object lives: turns are replaced, never changed, so a
 * streaming answer rebuilds the rows of its own turn only, and every other row keeps its identity.
 */
const rowsByTurn = new WeakMap<ChatTurn, readonly Row[]>();

/**
 * The conversation as a flat list of rows (what the virtualized list renders). Keys are stable
 * across updates: a tool call keeps its key from "pending" to "done". A failed turn ends in its
 * error (with Retry) instead of Harbor's note repeating it.
 */
export function rowsOf(conversation: Conversation): Row[] {
  const rows: Row[] = [];
  for (const turn of conversation.turns) {
    let own = rowsByTurn.get(turn);
    if (!own) {
      own = rowsOfTurn(turn);
      rowsByTurn.set(turn, own);
    }
    for (const row of own) rows.push(row);
  }
  return rows;
}

function rowsOfTurn(turn: ChatTurn): Row[] {
  const rows: Row[] = [];
  const failed = turn.status === 'error' && turn.error !== undefined;
  const finished = turn.status !== 'running' && !failed;
  const lastWords = turn.items.findLastIndex((i) => i.kind === 'assistant');
  turn.items.forEach((item, index) => {
    if (failed && item.kind === 'note') return;
    const key = item.kind === 'toolCall' ? `${turn.id}:call:${item.call.id}` : `${turn.id}:${index}`;
    const regenerate = finished && ((item.kind === 'assistant' && index === lastWords) || (item.kind === 'note' && lastWords < 0));
    rows.push({
      key,
      kind: 'item',
      item,
      turnId: turn.id,
      ...(item.kind === 'user' && turn.siblings ? { branch: turn.siblings } : {}),
      ...(regenerate ? { regenerate } : {}),
    });
  });
  if (turn.status === 'running') rows.push({ key: `${turn.id}:working`, kind: 'working', turnId: turn.id });
  else if (failed || (turn.error && !turn.items.some((i) => i.kind === 'note'))) rows.push({ key: `${turn.id}:error`, kind: 'turnError', turn });
  return rows;
}

/** Whether two rows show the same thing (a row re-renders only when this is false). */
export function sameRow(a: Row, b: Row): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.key !== b.key) return false;
  if (a.kind === 'item' && b.kind === 'item') return a.item === b.item && a.branch === b.branch && a.regenerate === b.regenerate;
  if (a.kind === 'turnError' && b.kind === 'turnError') return a.turn === b.turn;
  return a.kind === 'working';
}
