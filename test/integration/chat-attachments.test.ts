/**
 * What the chat view adds to the chat backend: resources the person attaches to a message (read
 * by the Host, added to the message the model gets, shown as chips in the conversation) and the
 * context meter (what the ready servers' tool definitions cost). Real Host, real fixture server,
 * the scripted model on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bindCommands } from '../../main/contract-handlers';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import type { TestHost } from '../helpers/host';
import { waitFor } from '../helpers/host';
import { createChatHost, featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

let model: ScriptedModel | undefined;
let test: TestHost | undefined;

afterEach(async () => {
  await test?.dispose();
  await model?.close();
  test = undefined;
  model = undefined;
});

describe('chat attachments', () => {
  it('reads an attached resource in main and gives its text to the model with the message', async () => {
    model = await startScriptedModel({ script: [{ text: 'It says hello.' }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const turn = await test.host.chat.send({ text: 'What does this say?', attachments: [{ server: 'feature', uri: 'fixture://hello' }] });
    expect((await turn.done).status).toBe('completed');

    const user = model.requests[0]!.messages.find((m) => m.role === 'user')!;
    const sent = JSON.stringify(user.content);
    expect(sent).toContain('What does this say?');
    expect(sent).toContain('Hello from the feature fixture.');
    expect(sent).toContain('fixture://hello');

    // The person sees their own text and a chip, not the resource's text pasted into the bubble.
    const items = test.host.chat.open(turn.conversationId).turns[0]!.items;
    expect(items[0]).toEqual({
      kind: 'user',
      text: 'What does this say?',
      attachments: [{ server: 'feature', uri: 'fixture://hello', mimeType: 'text/plain', chars: 'Hello from the feature fixture.'.length }],
    });
    // The conversation's title comes from the person's words only.
    expect(test.host.chat.list()[0]!.title).toBe('What does this say?');
    // A second turn still makes a valid prompt with the attachment in the history.
    model.push({ text: 'Still hello.' });
    const again = await test.host.chat.send({ conversationId: turn.conversationId, text: 'And now?' });
    expect((await again.done).status).toBe('completed');
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('Hello from the feature fixture.');
  });

  it('fails the send (and stores nothing) when an attachment cannot be read', async () => {
    model = await startScriptedModel({ script: [{ text: 'unused' }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const handlers = bindCommands(test.host);
    await expect(handlers['chat.send']({ text: 'read this', attachments: [{ server: 'feature', uri: 'fixture://nope' }] })).rejects.toMatchObject({
      message: expect.stringContaining('Could not attach fixture://nope from "feature"'),
    });
    expect(model.requests).toHaveLength(0);
    expect(test.host.chat.list()).toEqual([]);
  });
});

describe('pending chat questions', () => {
  it('lists a chat elicitation until it is answered, so a reloaded window can show it again', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__ask_name', arguments: {} }] }, { text: 'done' }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { mode: 'web', interactiveConsent: true } });
    const handlers = bindCommands(test.host);
    disposeAfterTest(test.host.events.onEvent('consent.request', (request) => void test!.host.consent.respond(request.id, 'once')));
    const asked: string[] = [];
    disposeAfterTest(test.host.events.onEvent('elicitation.request', (e) => asked.push(e.id)));
    const turn = await test.host.chat.send({ text: 'greet me' });
    await waitFor(() => asked.length > 0, 'the server to ask for a name', 15_000);
    const pending = await handlers['elicitation.pending']({});
    expect(pending).toEqual([
      expect.objectContaining({ conversationId: turn.conversationId, turnId: turn.turnId, toolCallId: expect.any(String), server: 'feature', mode: 'form', message: 'What is your name?' }),
    ]);
    expect(await handlers['elicitation.respond']({ id: pending[0]!.id, action: 'accept', content: { name: 'Ada' } })).toEqual({ accepted: true });
    expect((await turn.done).status).toBe('completed');
    expect(model.requests[1]!.toolResults.at(-1)!.content).toBe('Hello Ada');
    expect(await handlers['elicitation.pending']({})).toEqual([]);
  });
});

describe('chat context meter', () => {
  it('counts the tool definitions of ready servers without launching any', async () => {
    model = await startScriptedModel({ script: [] });
    test = await createChatHost({ feature: featureServer(), other: featureServer() }, { model: model.modelConfig({ contextWindow: 10_000 }) });
    const before = await test.host.chat.context();
    expect(before.toolTokens).toBe(0);
    expect(before.notConnected.sort()).toEqual(['feature', 'other']);
    expect(test.host.servers.list().every((s) => s.state.kind === 'stopped')).toBe(true);

    await test.host.servers.start('feature');
    const after = await test.host.chat.context();
    expect(after.notConnected).toEqual(['other']);
    const feature = after.servers.find((s) => s.name === 'feature')!;
    expect(feature.tools).toBe(test.host.servers.get('feature').counts.tools);
    expect(feature.toolTokens).toBeGreaterThan(50);
    expect(after.toolTokens).toBe(feature.toolTokens);
    expect(after).toMatchObject({ contextWindow: 10_000, searchThresholdTokens: 500, toolSearch: 'auto' });
    expect(after.mode).toBe(after.toolTokens > 500 ? 'search' : 'direct');
  });
});
