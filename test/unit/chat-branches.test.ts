/**
 * Branches of a conversation: an edited or regenerated message starts a turn beside the one it
 * replaces; the person sees one branch at a time and the model is given that branch only.
 */
import { describe, expect, it } from 'vitest';
import { activePath, newestLeaf, siblingsOf, type TurnNode } from '../../main/host/chat/conversations/branches';
import { ConversationStore } from '../../main/host/chat/conversations/store';
import { tempStores } from '../helpers/temp-stores';

const temp = tempStores('harbor-branches-');

let tick = 1_700_000_000_000;
const clock = () => (tick += 1);

function open(): ConversationStore {
  return temp.keep(new ConversationStore(temp.path(), clock));
}

/** A finished turn: the person's text, and the model's answer. */
function answered(store: ConversationStore, id: string, text: string, answer: string, options: Parameters<ConversationStore['startTurn']>[4] = {}): string {
  const turn = store.startTurn(id, text, 'm', [], options);
  store.appendStep(id, turn, 1, [{ role: 'assistant', content: [{ type: 'text', text: answer }] }]);
  store.finishTurn(turn, 'completed');
  return turn;
}

const texts = async (store: ConversationStore, id: string) =>
  (await store.history(id)).map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : (m.content as { text?: string }[]).map((p) => p.text ?? '').join('')}`);

describe('branches (pure)', () => {
  const tree: TurnNode[] = [
    { id: 'a', parentId: null },
    { id: 'b', parentId: 'a' },
    { id: 'b2', parentId: 'a' },
    { id: 'c', parentId: 'b' },
    { id: 'c2', parentId: 'b2' },
  ];

  it('the active path runs from the first turn to the active one; an unknown one falls back to the newest', () => {
    expect(activePath(tree, 'c').map((t) => t.id)).toEqual(['a', 'b', 'c']);
    expect(activePath(tree, 'b2').map((t) => t.id)).toEqual(['a', 'b2']);
    expect(activePath(tree, 'gone').map((t) => t.id)).toEqual(['a', 'b2', 'c2']);
    expect(activePath([], null)).toEqual([]);
  });

  it('siblings are listed oldest first for every turn that has them', () => {
    const siblings = siblingsOf(tree);
    expect(siblings.get('b')).toEqual(['b', 'b2']);
    expect(siblings.get('b2')).toEqual(['b', 'b2']);
    expect(siblings.has('a')).toBe(false);
    expect(siblings.has('c')).toBe(false);
  });

  it('choosing a turn shows its newest answers below it', () => {
    expect(newestLeaf(tree, 'b')).toBe('c');
    expect(newestLeaf(tree, 'a')).toBe('c2');
    expect(newestLeaf(tree, 'c')).toBe('c');
  });

  it('a cycle in damaged data ends the walk instead of hanging', () => {
    const loop: TurnNode[] = [
      { id: 'x', parentId: 'y' },
      { id: 'y', parentId: 'x' },
    ];
    expect(activePath(loop, 'x').map((t) => t.id)).toEqual(['y', 'x']);
  });
});

describe('ConversationStore branches', () => {
  it('an edit starts a branch beside the edited turn; the model gets the branch shown; the old one stays reachable', async () => {
    const store = open();
    const { id } = store.createConversation();
    const first = answered(store, id, 'hello', 'hi there');
    const second = answered(store, id, 'what is 2+2?', '5');
    // Edit the second message: a sibling of `second`, answering `first`.
    const original = store.userMessage(id, second);
    expect(original).toMatchObject({ text: 'what is 2+2?', parentId: first });
    const edited = answered(store, id, 'what is 2+2, exactly?', '4', { parentId: original.parentId });

    expect(await texts(store, id)).toEqual(['user:hello', 'assistant:hi there', 'user:what is 2+2, exactly?', 'assistant:4']);
    const shown = store.conversation(id);
    expect(shown.turns.map((t) => t.id)).toEqual([first, edited]);
    expect(shown.turns[1]!.siblings).toEqual([second, edited]);
    expect(shown.turns[0]!.siblings).toBeUndefined();

    // Back to the first branch: the person and the model see it again, and the next message continues it.
    store.switchBranch(id, second);
    expect(store.conversation(id).turns.map((t) => t.id)).toEqual([first, second]);
    const third = answered(store, id, 'are you sure?', 'sorry, 4');
    expect(await texts(store, id)).toEqual(['user:hello', 'assistant:hi there', 'user:what is 2+2?', 'assistant:5', 'user:are you sure?', 'assistant:sorry, 4']);
    // Switching to the edit and back again lands on the newest answer below the chosen turn.
    store.switchBranch(id, edited);
    store.switchBranch(id, second);
    expect(store.conversation(id).turns.map((t) => t.id)).toEqual([first, second, third]);
    expect(() => store.switchBranch(id, 'no-such-turn')).toThrow(expect.objectContaining({ code: 'CONVERSATION_NOT_FOUND' }));
  });

  it('a regenerated first turn is a sibling at the root, with the same message and files', () => {
    const store = open();
    const { id } = store.createConversation();
    const files = [{ name: 'notes.txt', kind: 'text' as const, mimeType: 'text/plain', bytes: 5, chars: 5 }];
    const first = store.startTurn(id, 'summarize', 'm', [{ type: 'text', text: '[harbor:file {"name":"notes.txt"}]\nhello' }], { files });
    store.finishTurn(first, 'error', 'The model failed.', { code: 'MODEL_ERROR', message: 'The model failed.' });
    const original = store.userMessage(id, first);
    expect(original).toMatchObject({ text: 'summarize', parentId: null, files });
    const again = answered(store, id, original.text, 'A greeting.', { parentId: original.parentId, files: original.files });
    const shown = store.conversation(id);
    expect(shown.turns).toHaveLength(1);
    expect(shown.turns[0]).toMatchObject({ id: again, siblings: [first, again], status: 'completed' });
    expect(shown.turns[0]!.items[0]).toEqual({ kind: 'user', text: 'summarize', files });
  });
});
