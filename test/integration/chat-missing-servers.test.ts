/**
 * #28 §2 "The chat says what is missing": when a server the conversation used is not ready, the
 * turn says which server and why (event chat.missing, and the turn's own event), besides the line
 * the system prompt already has — instead of the model silently getting fewer tools. A real Host,
 * real servers (the feature fixture, one that dies at start), the scripted model.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FIXTURES, NODE, type TestHost } from '../helpers/host';
import { createChatHost, eventLog, featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

const CRASH = join(FIXTURES, 'adversarial/crash-at-startup.mjs');

let model: ScriptedModel | undefined;
let test: TestHost | undefined;
afterEach(async () => {
  await test?.dispose();
  await model?.close();
  test = undefined;
  model = undefined;
});

describe('a server the conversation used that is not ready', () => {
  it('the next turn names it and why; a server it never used is not named', async () => {
    model = await startScriptedModel({
      script: [{ toolCalls: [{ name: 'notes__echo', arguments: { text: 'hi' } }] }, { text: 'Echoed.' }, { text: 'I cannot reach notes now.' }],
    });
    test = await createChatHost({ notes: featureServer(), broken: { command: NODE, args: [CRASH], trusted: true } }, { model: model.modelConfig() });
    const host = test.host;
    const missing: EventPayload<'chat.missing'>[] = [];
    disposeAfterTest(host.events.onEvent('chat.missing', (payload) => missing.push(payload)));

    const first = await host.chat.send({ text: 'echo hi', approveOnce: true });
    expect(await first.done).toMatchObject({ status: 'completed' });
    // "broken" never worked in this conversation: the prompt names it, the turn does not.
    expect(missing).toEqual([]);

    // notes now dies at start (its command changed): the next turn cannot offer it.
    await host.registry.update('notes', (config) => ({ ...config, command: NODE, args: [CRASH] }));
    const log = eventLog();
    const second = await host.chat.send({ conversationId: first.conversationId, text: 'again', approveOnce: true, onEvent: log.onEvent });
    expect(await second.done).toMatchObject({ status: 'completed' });

    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ conversationId: first.conversationId, turnId: second.turnId });
    expect(missing[0]!.servers.map((s) => s.server)).toEqual(['notes']);
    expect(missing[0]!.servers[0]!.reason).toContain('fatal: missing config FOO');
    expect(missing[0]!.servers[0]!.reason).toMatch(/see its log$/);
    expect(log.events.filter((e) => e.type === 'missing')).toHaveLength(1);
    // …and the model is told too, as before.
    expect(model.requests[2]!.system).toContain('Unavailable this turn: ');
    expect(model.requests[2]!.system).toContain('notes (');
  });
});
