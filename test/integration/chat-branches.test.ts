/**
 * Edit, regenerate and branches, and files from the person's computer, through the contract: a
 * real Host, the scripted model on 127.0.0.1 recording exactly what it is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher, type Dispatch } from '../../main/dispatch';
import type { Conversation, Result } from '../../preload/contract';
import type { TestHost } from '../helpers/host';
import { waitFor } from '../helpers/host';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { PNG_1X1 } from '../fixtures/files/images';

let model: ScriptedModel | undefined;
let test: TestHost | undefined;

afterEach(async () => {
  await test?.dispose();
  await model?.close();
  test = undefined;
  model = undefined;
});

async function call<T>(dispatch: Dispatch, command: string, payload: unknown): Promise<T> {
  const result = (await dispatch(command as never, payload)) as Result<T>;
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value;
}

async function settle(host: TestHost['host'], conversationId: string): Promise<Conversation> {
  await waitFor(() => host.chat.open(conversationId).turns.at(-1)?.status !== 'running', 'the turn to end');
  return host.chat.open(conversationId);
}

/** What the model was sent in its last request: role and text of each message, system prompt left out. */
function lastPrompt(m: ScriptedModel): string[] {
  return m.requests
    .at(-1)!
    .messages.filter((x) => x.role !== 'system')
    .map((x) => `${String(x.role)}:${typeof x.content === 'string' ? x.content : JSON.stringify(x.content)}`);
}

describe('chat branches', () => {
  it('regenerate answers the same message again beside the old answer; edit sends a new one; the model gets the branch shown', async () => {
    model = await startScriptedModel({ script: [{ text: 'Paris.' }, { text: 'Lyon?' }, { text: 'It is Paris.' }, { text: 'Berlin.' }, { text: 'Mostly sunny.' }] });
    test = await createChatHost({}, { model: model.modelConfig() });
    const dispatch = createDispatcher(bindCommands(test.host));

    const first = await call<{ conversationId: string; turnId: string }>(dispatch, 'chat.send', { text: 'Capital of France?' });
    const id = first.conversationId;
    await settle(test.host, id);
    const second = await call<{ turnId: string }>(dispatch, 'chat.send', { conversationId: id, text: 'Are you sure?' });
    await settle(test.host, id);

    // Regenerate the second answer: the model is sent the same history up to that message, not the old answer.
    const again = await call<{ turnId: string }>(dispatch, 'chat.regenerate', { conversationId: id, turnId: second.turnId });
    let shown = await settle(test.host, id);
    expect(lastPrompt(model)).toEqual(['user:Capital of France?', 'assistant:Paris.', 'user:Are you sure?']);
    expect(shown.turns.map((t) => [t.id, t.siblings])).toEqual([
      [first.turnId, undefined],
      [again.turnId, [second.turnId, again.turnId]],
    ]);
    expect(shown.turns[1]!.items).toEqual([
      { kind: 'user', text: 'Are you sure?' },
      { kind: 'assistant', text: 'It is Paris.' },
    ]);

    // Edit the first message: a branch at the root; the model hears nothing of the old branch.
    const edited = await call<{ turnId: string }>(dispatch, 'chat.send', { conversationId: id, editOf: first.turnId, text: 'Capital of Germany?' });
    shown = await settle(test.host, id);
    expect(lastPrompt(model)).toEqual(['user:Capital of Germany?']);
    expect(shown.turns.map((t) => [t.id, t.siblings])).toEqual([[edited.turnId, [first.turnId, edited.turnId]]]);

    // The earlier branch is reachable, and the next message continues the branch shown.
    const back = await call<Conversation>(dispatch, 'conversations.switchBranch', { id, turnId: first.turnId });
    expect(back.turns.map((t) => t.id)).toEqual([first.turnId, again.turnId]);
    await call(dispatch, 'chat.send', { conversationId: id, text: 'Weather there?' });
    await settle(test.host, id);
    expect(lastPrompt(model)).toEqual([
      'user:Capital of France?',
      'assistant:Paris.',
      'user:Are you sure?',
      'assistant:It is Paris.',
      'user:Weather there?',
    ]);
    // The export follows the branch shown.
    const exported = await call<{ content: string }>(dispatch, 'conversations.export', { id, format: 'markdown' });
    expect(exported.content).toContain('It is Paris.');
    expect(exported.content).not.toContain('Lyon?');
    expect(exported.content).not.toContain('Germany');

    await expect(call(dispatch, 'chat.send', { editOf: first.turnId, text: 'no conversation' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call(dispatch, 'chat.regenerate', { conversationId: id, turnId: 'nope' })).rejects.toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
  });
});

describe('files from the person’s computer', () => {
  it('a model that takes images gets an image part; a text file goes as text; the conversation shows both as files', async () => {
    model = await startScriptedModel({ script: [{ text: 'A tiny dot, and your notes.' }, { text: 'Again.' }] });
    test = await createChatHost({}, { model: model.modelConfig({ vision: true }) });
    const dispatch = createDispatcher(bindCommands(test.host));
    expect(await call<{ images?: boolean }>(dispatch, 'chat.status', {})).toMatchObject({ images: true });
    const thumbnail = `data:image/png;base64,${PNG_1X1}`;
    const sent = await call<{ conversationId: string; turnId: string }>(dispatch, 'chat.send', {
      text: 'What are these?',
      files: [
        { name: 'dot.png', mimeType: 'image/png', data: PNG_1X1, thumbnail },
        { name: 'notes.txt', mimeType: 'text/plain', data: Buffer.from('buy milk').toString('base64') },
      ],
    });
    const shown = await settle(test.host, sent.conversationId);
    const user = model.requests[0]!.messages.find((m) => m.role === 'user')!;
    const parts = user.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'image_url', 'text']);
    expect(parts[0]!.text).toBe('What are these?');
    expect(parts[2]!.image_url!.url).toBe(`data:image/png;base64,${PNG_1X1}`);
    expect(parts[3]!.text).toContain('The person attached the file "notes.txt" (its content follows):\nbuy milk');
    expect(shown.turns[0]!.items[0]).toEqual({
      kind: 'user',
      text: 'What are these?',
      files: [
        { name: 'dot.png', kind: 'image', mimeType: 'image/png', bytes: Buffer.from(PNG_1X1, 'base64').length, thumbnail },
        { name: 'notes.txt', kind: 'text', mimeType: 'text/plain', bytes: 8, chars: 8 },
      ],
    });
    // Regenerated: the same files go again.
    await call(dispatch, 'chat.regenerate', { conversationId: sent.conversationId, turnId: sent.turnId });
    await settle(test.host, sent.conversationId);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain(`data:image/png;base64,${PNG_1X1}`);
  });

  it('a model that does not take images: the image is refused before anything is stored, saying what to do', async () => {
    model = await startScriptedModel({ script: [{ text: 'unused' }] });
    test = await createChatHost({}, { model: model.modelConfig() });
    const dispatch = createDispatcher(bindCommands(test.host));
    expect(await call<{ images?: boolean }>(dispatch, 'chat.status', {})).toMatchObject({ images: false });
    await expect(call(dispatch, 'chat.send', { text: 'look', files: [{ name: 'dot.png', mimeType: 'image/png', data: PNG_1X1 }] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('The model "openai-compatible:scripted" does not take images.'),
    });
    await expect(call(dispatch, 'chat.send', { text: 'read', files: [{ name: 'a.pdf', mimeType: 'application/pdf', data: 'JVBERi0=' }] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('Cannot attach "a.pdf"'),
    });
    expect(test.host.chat.list()).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});
