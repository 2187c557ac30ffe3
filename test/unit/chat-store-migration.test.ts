/**
 * conversations.db written by the previous schema (version 1: turns one after another, no
 * branches) opened by this Harbor: its turns become the first branch, shown and continued as
 * before; the file is migrated once and says so in user_version.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../main/host/chat/conversations/database';
import { ConversationStore } from '../../main/host/chat/conversations/store';
import { tempStores } from '../helpers/temp-stores';

/** The schema every Harbor before branches created (user_version 1), as it wrote it. */
const SCHEMA_1 = `
CREATE TABLE conversations (id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, tool_mode TEXT);
CREATE TABLE turns (
  id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE, status TEXT NOT NULL, model TEXT,
  owner_pid INTEGER NOT NULL, started_at INTEGER NOT NULL, ended_at INTEGER, steps INTEGER NOT NULL DEFAULT 0, note TEXT, error_code TEXT, error_message TEXT);
CREATE INDEX turns_by_conversation ON turns(conversation_id, started_at);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE, step INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
CREATE TABLE tool_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT, conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL REFERENCES turns(id) ON DELETE CASCADE, step INTEGER NOT NULL, call_id TEXT NOT NULL, name TEXT NOT NULL,
  server TEXT, tool TEXT, arguments TEXT NOT NULL, status TEXT NOT NULL, approval TEXT, result TEXT, error_code TEXT, error_message TEXT,
  truncated_bytes INTEGER NOT NULL DEFAULT 0, started_at INTEGER NOT NULL, ended_at INTEGER);
CREATE INDEX tool_calls_by_turn ON tool_calls(turn_id, id);
PRAGMA user_version = 1;
`;

const temp = tempStores('harbor-chat-migration-');

/** A version-1 file with two conversations: one of three turns (one with a tool call), one of a single turn. */
function writeVersion1(path: string): void {
  const db = new DatabaseSync(path);
  db.exec(SCHEMA_1);
  const conversation = db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)');
  const turn = db.prepare("INSERT INTO turns (id, conversation_id, status, model, owner_pid, started_at, ended_at, steps) VALUES (?, ?, 'completed', 'm', 1, ?, ?, 1)");
  const message = db.prepare('INSERT INTO messages (conversation_id, turn_id, step, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  conversation.run('conv-a', 'Old chat', 100, 400);
  conversation.run('conv-b', 'Other', 500, 500);
  // Two turns started in the same millisecond: their order is their insertion order.
  turn.run('t1', 'conv-a', 100, 150);
  turn.run('t2', 'conv-a', 200, 250);
  turn.run('t3', 'conv-a', 200, 300);
  turn.run('u1', 'conv-b', 500, 550);
  message.run('conv-a', 't1', 0, 'user', JSON.stringify('first'), 100);
  message.run('conv-a', 't1', 1, 'assistant', JSON.stringify([{ type: 'text', text: 'one' }]), 150);
  message.run('conv-a', 't2', 0, 'user', JSON.stringify('second'), 200);
  message.run('conv-a', 't2', 1, 'assistant', JSON.stringify([{ type: 'tool-call', toolCallId: 'c1', toolName: 'x__echo', input: {} }]), 210);
  message.run('conv-a', 't2', 1, 'tool', JSON.stringify([{ type: 'tool-result', toolCallId: 'c1', toolName: 'x__echo', output: { type: 'text', value: 'echoed' } }]), 210);
  message.run('conv-a', 't3', 0, 'user', JSON.stringify('third'), 200);
  message.run('conv-a', 't3', 1, 'assistant', JSON.stringify([{ type: 'text', text: 'three' }]), 300);
  message.run('conv-b', 'u1', 0, 'user', JSON.stringify('alone'), 500);
  db.prepare(
    "INSERT INTO tool_calls (conversation_id, turn_id, step, call_id, name, server, tool, arguments, status, result, started_at, ended_at) VALUES ('conv-a', 't2', 1, 'c1', 'x__echo', 'x', 'echo', '{}', 'done', ?, 205, 209)",
  ).run(JSON.stringify({ content: [{ type: 'text', text: 'echoed' }], isError: false }));
  db.close();
}

describe('conversations.db of the previous schema', () => {
  it('is migrated once: its turns become the first branch, shown, given to the model and continued', async () => {
    const path = temp.path();
    writeVersion1(path);

    const store = new ConversationStore(path, () => 1000);
    temp.keep(store);
    const conversation = store.conversation('conv-a');
    expect(conversation.turns.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(conversation.turns.every((t) => t.siblings === undefined)).toBe(true);
    expect(conversation.turns[1]!.items).toMatchObject([{ kind: 'user', text: 'second' }, { kind: 'toolCall', call: { id: 'c1', status: 'done' } }]);
    expect((await store.history('conv-a')).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'user', 'assistant']);
    expect(store.conversation('conv-b').turns.map((t) => t.id)).toEqual(['u1']);

    const db = new DatabaseSync(path);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id, parent_id FROM turns ORDER BY rowid').all().map((r) => ({ ...r }))).toEqual([
      { id: 't1', parent_id: null },
      { id: 't2', parent_id: 't1' },
      { id: 't3', parent_id: 't2' },
      { id: 'u1', parent_id: null },
    ]);
    expect(db.prepare('SELECT id, active_turn_id FROM conversations ORDER BY id').all().map((r) => ({ ...r }))).toEqual([
      { id: 'conv-a', active_turn_id: 't3' },
      { id: 'conv-b', active_turn_id: 'u1' },
    ]);
    db.close();

    // The next message continues the last turn; editing the second message branches beside it.
    const next = store.startTurn('conv-a', 'fourth', 'm');
    expect(store.conversation('conv-a').turns.map((t) => t.id)).toEqual(['t1', 't2', 't3', next]);
    store.finishTurn(next, 'completed');
    const edit = store.startTurn('conv-a', 'second, edited', 'm', [], { parentId: store.userMessage('conv-a', 't2').parentId });
    expect(store.conversation('conv-a').turns.map((t) => ({ id: t.id, siblings: t.siblings }))).toEqual([
      { id: 't1', siblings: undefined },
      { id: edit, siblings: ['t2', edit] },
    ]);
  });

  it('a file of an earlier version gains the toolset column: none set, then remembered across a reopen', () => {
    const path = temp.path();
    writeVersion1(path);
    const store = new ConversationStore(path, () => 1000);
    temp.keep(store);
    expect(store.summary('conv-a').toolset).toBeUndefined();
    expect(store.setToolset('conv-a', 'research')).toMatchObject({ id: 'conv-a', toolset: 'research' });
    expect(store.list().find((c) => c.id === 'conv-a')?.toolset).toBe('research');
    store.dispose();
    const again = new ConversationStore(path, () => 2000);
    temp.keep(again);
    expect(again.toolset('conv-a')).toBe('research');
    expect(again.setToolset('conv-a', null).toolset).toBeUndefined();
    expect(() => again.setToolset('no-such', 'x')).toThrow(/No conversation "no-such"/);
  });

  it('a new file is created at the current version; a file from a newer Harbor is refused untouched', () => {
    const fresh = new ConversationStore(temp.path('fresh.db'));
    temp.keep(fresh);
    const { id } = fresh.createConversation();
    fresh.startTurn(id, 'hi', 'm');
    const db = new DatabaseSync(temp.path('fresh.db'));
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(SCHEMA_VERSION);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    fresh.dispose();
    temp.forget();
    const newer = new ConversationStore(temp.path('fresh.db'));
    temp.keep(newer);
    expect(() => newer.list()).toThrow(new RegExp(`newer Harbor \\(schema ${SCHEMA_VERSION + 1}\\)`));
  });
});
