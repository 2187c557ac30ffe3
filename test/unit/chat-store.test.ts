import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { ConversationStore } from '../../main/host/chat/conversations/store';
import { tempStores } from '../helpers/temp-stores';

const temp = tempStores('harbor-store-');

/** A clock that moves 1 ms per reading, so "newest first" does not depend on timing. */
let tick = 1_700_000_000_000;
const clock = () => (tick += 1);

function open(): ConversationStore {
  return temp.keep(new ConversationStore(temp.path(), clock));
}

/** A pid that certainly belongs to no running process: a child that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

describe('ConversationStore', () => {
  it('uses WAL and keeps messages, tool calls, approvals and timings', async () => {
    const store = open();
    const { id } = store.createConversation();
    const turn = store.startTurn(id, 'please echo', 'openai-compatible:scripted');
    const row = store.insertToolCall(id, { turnId: turn, step: 1, callId: 'call_1', name: 'feature__echo', arguments: { text: 'hi' } });
    store.updateToolCall(row, { status: 'running', server: 'feature', tool: 'echo' });
    store.updateToolCall(row, { status: 'done', approval: 'approved-once', result: { content: [{ type: 'text', text: 'hi' }], isError: false } });
    store.appendStep(id, turn, 1, [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'feature__echo', input: { text: 'hi' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'feature__echo', output: { type: 'text', value: 'hi' } }] },
    ]);
    store.appendStep(id, turn, 2, [{ role: 'assistant', content: [{ type: 'text', text: 'It said hi.' }] }]);
    store.finishTurn(turn, 'completed');

    const db = new DatabaseSync(store.path);
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();

    expect((await store.history(id)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const conversation = store.conversation(id);
    expect(conversation).toMatchObject({ id, title: 'please echo', turnCount: 1, lastStatus: 'completed' });
    expect(conversation.turns[0]!.items).toMatchObject([
      { kind: 'user', text: 'please echo' },
      {
        kind: 'toolCall',
        call: { id: 'call_1', server: 'feature', tool: 'echo', arguments: { text: 'hi' }, status: 'done', approval: 'approved-once', result: { isError: false } },
      },
      { kind: 'assistant', text: 'It said hi.' },
    ]);
    const item = conversation.turns[0]!.items[1]!;
    expect(item.kind === 'toolCall' && typeof item.call.endedAt === 'number').toBe(true);
  });

  it('marks a turn whose process died as interrupted, keeping its completed steps', async () => {
    const store = open();
    const { id } = store.createConversation();
    const turn = store.startTurn(id, 'crash soon', 'm');
    store.insertToolCall(id, { turnId: turn, step: 1, callId: 'c', name: 'x__slow', arguments: {} });
    store.dispose();
    // The turn's owner is a process that no longer exists (a crash).
    const db = new DatabaseSync(store.path);
    db.prepare('UPDATE turns SET owner_pid = ? WHERE id = ?').run(deadPid(), turn);
    db.close();

    const reopened = open();
    const conversation = reopened.conversation(id);
    expect(conversation.turns[0]!.status).toBe('interrupted');
    expect(conversation.turns[0]!.items[1]).toMatchObject({ kind: 'toolCall', call: { status: 'error', error: { code: 'CANCELLED' } } });
    expect(await reopened.history(id)).toEqual([{ role: 'user', content: 'crash soon' }]);
  });

  it('leaves a turn alone while the process running it is alive', () => {
    const store = open();
    const { id } = store.createConversation();
    const turn = store.startTurn(id, 'busy', 'm');
    const db = new DatabaseSync(store.path);
    db.prepare('UPDATE turns SET owner_pid = ? WHERE id = ?').run(process.ppid, turn);
    db.close();
    const other = new ConversationStore(store.path);
    temp.keep(other);
    expect(other.conversation(id).turns[0]!.status).toBe('running');
  });

  it('lists newest first, renames, resolves id prefixes, deletes with everything in it', () => {
    const store = open();
    const a = store.createConversation('alpha');
    const b = store.createConversation('beta');
    store.startTurn(a.id, 'bump alpha', 'm');
    expect(store.list().map((c) => c.title)).toEqual(['alpha', 'beta']);
    expect(store.rename(b.id, ' Better ').title).toBe('Better');
    expect(store.resolveId(a.id.slice(0, 8))).toBe(a.id);
    expect(() => store.resolveId('nope')).toThrow(expect.objectContaining({ code: 'CONVERSATION_NOT_FOUND' }));
    expect(store.delete(a.id)).toBe(true);
    expect(store.delete(a.id)).toBe(false);
    expect(store.list().map((c) => c.id)).toEqual([b.id]);
    const db = new DatabaseSync(store.path);
    expect((db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n).toBe(0);
    db.close();
  });

  it('refuses a database from a newer Harbor instead of damaging it', () => {
    const path = temp.path();
    const db = new DatabaseSync(path);
    db.exec('PRAGMA user_version = 99');
    db.close();
    const store = new ConversationStore(path);
    temp.keep(store);
    expect(() => store.list()).toThrow(/newer Harbor/);
  });

  describe('reads back only rows it can trust (a damaged file, corrupted on purpose)', () => {
    /** A conversation with one finished turn and one tool call, then the store closed. */
    function written(): { store: ConversationStore; id: string; turn: string } {
      const store = open();
      const { id } = store.createConversation();
      const turn = store.startTurn(id, 'please echo', 'm');
      const row = store.insertToolCall(id, { turnId: turn, step: 1, callId: 'call_1', name: 'feature__echo', arguments: { text: 'hi' } });
      store.updateToolCall(row, { status: 'done', result: { content: [{ type: 'text', text: 'hi' }], isError: false } });
      store.appendStep(id, turn, 1, [{ role: 'assistant', content: [{ type: 'text', text: 'It said hi.' }] }]);
      store.finishTurn(turn, 'completed');
      store.dispose();
      return { store, id, turn };
    }

    function corrupt(path: string, sql: string, ...params: (string | number)[]): void {
      const db = new DatabaseSync(path);
      db.prepare(sql).run(...params);
      db.close();
    }

    async function failureAsync(read: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
      try {
        await read();
      } catch (error) {
        return error as { code?: string; message: string };
      }
      throw new Error('expected the read to fail');
    }

    function failure(read: () => unknown): { code?: string; message: string } {
      try {
        read();
      } catch (error) {
        return error as { code?: string; message: string };
      }
      throw new Error('expected the read to fail');
    }

    it('a tool call whose arguments are not JSON: an error naming the conversation, the call and the column', () => {
      const { store, id } = written();
      corrupt(store.path, "UPDATE tool_calls SET arguments = '{\"text\": ' WHERE call_id = 'call_1'");
      const error = failure(() => open().conversation(id));
      expect(error.code).toBe('DATA_CORRUPT');
      expect(error.message).toContain(`Conversation "${id}"`);
      expect(error.message).toContain('tool call call_1');
      expect(error.message).toContain('arguments is not valid JSON');
      expect(error.message).toContain(store.path);
    });

    it('a turn with a status or a start time Harbor never writes', () => {
      const { store, id, turn } = written();
      corrupt(store.path, "UPDATE turns SET status = 'exploded' WHERE id = ?", turn);
      // The conversation's summary carries its last turn's status: opening it and listing both say so.
      const error = failure(() => open().conversation(id));
      expect(error).toMatchObject({ code: 'DATA_CORRUPT', message: expect.stringContaining(`Conversation "${id}" cannot be read: its summary is damaged (last_status`) });
      expect(failure(() => open().list()).message).toContain('last_status');
      // A turn whose start time is text: the turn itself is named.
      corrupt(store.path, "UPDATE turns SET status = 'completed', started_at = 'yesterday' WHERE id = ?", turn);
      expect(failure(() => open().conversation(id)).message).toContain(`turn ${turn} is damaged (started_at`);
    });

    it('a stored message the model could not be sent: the history refuses it instead of a bad prompt', async () => {
      const { store, id } = written();
      corrupt(store.path, "UPDATE messages SET content = ? WHERE role = 'assistant'", JSON.stringify([{ type: 'tool-call', toolCallId: 'call_1' }]));
      const error = await failureAsync(() => open().history(id));
      expect(error.code).toBe('DATA_CORRUPT');
      expect(error.message).toMatch(new RegExp(`Conversation "${id}" cannot be read: message \\d+ is damaged`));
      // Text that is not JSON at all, in a user message.
      corrupt(store.path, "UPDATE messages SET content = 'not json' WHERE role = 'user'");
      expect(failure(() => open().conversation(id)).message).toContain('content is not valid JSON');
    });
  });
});

