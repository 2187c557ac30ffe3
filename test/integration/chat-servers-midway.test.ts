/**
 * #28 §2: a server added or re-enabled during a conversation is usable in the next turn of that
 * conversation — a real Host, real feature-fixture servers, the scripted model on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestHost } from '../helpers/host';
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

describe('servers that join a conversation midway', () => {
  it('a server added after the first turn is offered, and called, in the next turn', async () => {
    model = await startScriptedModel({
      script: [{ text: 'Only one so far.' }, { toolCalls: [{ name: 'later__echo', arguments: { text: 'hello from later' } }] }, { text: 'Later answered.' }],
    });
    test = await createChatHost({ first: featureServer() }, { model: model.modelConfig() });
    const first = await test.host.chat.send({ text: 'what do you have?', approveOnce: true });
    expect(await first.done).toMatchObject({ status: 'completed' });
    expect(model.requests[0]!.toolNames.some((n) => n.startsWith('later__'))).toBe(false);

    await test.host.registry.add('later', featureServer());
    const second = await test.host.chat.send({ conversationId: first.conversationId, text: 'and now?', approveOnce: true });
    expect(await second.done).toMatchObject({ status: 'completed', text: 'Later answered.' });
    expect(model.requests[1]!.toolNames).toContain('later__echo');
    expect(model.requests[2]!.toolResults[0]!.content).toBe('hello from later');
  });

  it('a server re-enabled after the first turn is offered in the next turn', async () => {
    model = await startScriptedModel({ script: [{ text: 'Without it.' }, { text: 'With it.' }] });
    test = await createChatHost({ first: featureServer(), paused: featureServer({ enabled: false }) }, { model: model.modelConfig() });
    const first = await test.host.chat.send({ text: 'one', approveOnce: true });
    expect(await first.done).toMatchObject({ status: 'completed' });
    expect(model.requests[0]!.toolNames.some((n) => n.startsWith('paused__'))).toBe(false);

    await test.host.registry.update('paused', (config) => ({ ...config, enabled: true }));
    const second = await test.host.chat.send({ conversationId: first.conversationId, text: 'two', approveOnce: true });
    expect(await second.done).toMatchObject({ status: 'completed' });
    expect(model.requests[1]!.toolNames).toContain('paused__echo');
  });
});
