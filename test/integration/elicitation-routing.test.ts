/**
 * A server's question belongs to the request it was asked in, not to "whatever runs on that
 * server now": two conversations (or a manual run and a chat) using one server at once each get
 * their own question and their own answer. Real Host in browser mode, real servers as child
 * processes, the scripted model:
 * - modern stdio (the feature fixture's ask_name, MRTR `input_required`): linked by the call's
 *   own response;
 * - legacy Streamable HTTP (the v1 fixture's ask): the server's request arrives on the POST
 *   stream of the call it relates to;
 * - legacy stdio (server-everything): nothing on the wire links it — attributed only when exactly
 *   one request is in flight, never guessed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationRequestData } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { waitFor, type TestHost } from '../helpers/host';
import { startLegacyHttpServer, type RunningHttpServer } from '../helpers/http-server';
import { createChatHost, everythingServer, featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type RecordedRequest, type ScriptedModel } from '../fixtures/model/scripted-model';

let model: ScriptedModel | undefined;
let test: TestHost | undefined;
let remote: RunningHttpServer | undefined;

afterEach(async () => {
  await test?.dispose();
  await model?.close();
  await remote?.kill();
  test = model = remote = undefined;
});

/** A model that calls `tool` once per conversation, then reports what the tool said. */
function callOnceThenReport(tool: string, args: Record<string, unknown> = {}) {
  return startScriptedModel({
    script: [(request: RecordedRequest) => (request.toolResults.length > 0 ? { text: `tool said: ${request.toolResults.at(-1)!.content}` } : { toolCalls: [{ name: tool, arguments: args }] })],
    repeatLast: true,
  });
}

function questions(t: TestHost): ElicitationRequestData[] {
  const asked: ElicitationRequestData[] = [];
  disposeAfterTest(t.host.events.onEvent('elicitation.request', (q) => asked.push(q)));
  return asked;
}

describe('elicitation routed by the request it belongs to', () => {
  it('two conversations on one modern server (input_required) each get their own question and answer', async () => {
    model = await callOnceThenReport('feature__ask_name');
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = questions(test);
    const first = await test.host.chat.send({ text: 'greet me', approveOnce: true });
    const second = await test.host.chat.send({ text: 'greet me too', approveOnce: true });
    // Both wait for the person at once: neither is "the only call on the server".
    await waitFor(() => asked.length === 2, 'both conversations to be asked', 20_000);
    const byConversation = new Map(asked.map((q) => [q.conversationId, q]));
    expect([...byConversation.keys()].sort()).toEqual([first.conversationId, second.conversationId].sort());
    for (const turn of [first, second]) {
      expect(byConversation.get(turn.conversationId)).toMatchObject({ server: 'feature', turnId: turn.turnId, toolCallId: expect.any(String), message: 'What is your name?' });
    }
    // Answered in the other order than asked.
    expect(test.host.elicitation.respond(byConversation.get(second.conversationId)!.id, 'accept', { name: 'Grace' })).toBe(true);
    expect(test.host.elicitation.respond(byConversation.get(first.conversationId)!.id, 'accept', { name: 'Ada' })).toBe(true);
    expect((await first.done).text).toBe('tool said: Hello Ada');
    expect((await second.done).text).toBe('tool said: Hello Grace');
    expect(test.host.elicitation.pending()).toEqual([]);
  });

  it('a manual run during a chat on the same server gets its own question (no conversation), and its own answer', async () => {
    model = await callOnceThenReport('feature__ask_name');
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = questions(test);
    // The manual run asks first and keeps waiting: the chat's question then arrives with two requests in flight.
    const manual = test.call('feature', 'ask_name');
    await waitFor(() => asked.length === 1, 'the manual run to be asked', 20_000);
    const turn = await test.host.chat.send({ text: 'greet me', approveOnce: true });
    await waitFor(() => asked.length === 2, 'the chat call to be asked', 20_000);
    const [manualQuestion, chatQuestion] = asked as [ElicitationRequestData, ElicitationRequestData];
    expect(chatQuestion).toMatchObject({ conversationId: turn.conversationId, turnId: turn.turnId });
    expect(manualQuestion.conversationId).toBeUndefined();
    expect(manualQuestion.turnId).toBeUndefined();
    expect(test.host.elicitation.respond(manualQuestion.id, 'accept', { name: 'by hand' })).toBe(true);
    expect((await manual).content).toEqual([{ type: 'text', text: 'Hello by hand' }]);
    expect(test.host.elicitation.respond(chatQuestion.id, 'accept', { name: 'the chat' })).toBe(true);
    expect((await turn.done).text).toBe('tool said: Hello the chat');
  });

  it('legacy Streamable HTTP: the question travels on the POST stream of its call, so two conversations each get theirs', async () => {
    remote = await startLegacyHttpServer('streamable');
    model = await callOnceThenReport('legacy__ask', { question: 'Which colour?' });
    test = await createChatHost({ legacy: { url: remote.url } }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = questions(test);
    const first = await test.host.chat.send({ text: 'ask me', approveOnce: true });
    const second = await test.host.chat.send({ text: 'ask me too', approveOnce: true });
    await waitFor(() => asked.length === 2, 'both conversations to be asked', 20_000);
    const byConversation = new Map(asked.map((q) => [q.conversationId, q]));
    expect([...byConversation.keys()].sort()).toEqual([first.conversationId, second.conversationId].sort());
    test.host.elicitation.respond(byConversation.get(first.conversationId)!.id, 'accept', { answer: 'red' });
    test.host.elicitation.respond(byConversation.get(second.conversationId)!.id, 'accept', { answer: 'blue' });
    expect((await first.done).text).toBe('tool said: answer: red');
    expect((await second.done).text).toBe('tool said: answer: blue');
  });

  it('legacy stdio: attributed when its call is the only request in flight, shown on its own (naming the server) when not', async () => {
    model = await callOnceThenReport('everything__trigger-elicitation-request');
    test = await createChatHost({ everything: everythingServer() }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = questions(test);
    disposeAfterTest(test.host.events.onEvent('elicitation.request', (q) => void test!.host.elicitation.respond(q.id, 'decline')));

    const alone = await test.host.chat.send({ text: 'ask me', approveOnce: true });
    await alone.done;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 'everything', conversationId: alone.conversationId, turnId: alone.turnId });

    // Another request in flight on the same server: nothing on the wire says whose question it is.
    const busy = new AbortController();
    const slow = test.call('everything', 'trigger-long-running-operation', { duration: 30, steps: 30 }, { signal: busy.signal }).catch(() => undefined);
    const during = await test.host.chat.send({ text: 'ask me again', approveOnce: true });
    await during.done;
    busy.abort();
    await slow;
    expect(asked).toHaveLength(2);
    expect(asked[1]!.server).toBe('everything');
    expect(asked[1]!.conversationId).toBeUndefined();
    expect(asked[1]!.turnId).toBeUndefined();
  });

  it('a question ends with the request it belongs to: Stop cancels it (elicitation.resolved), nothing lingers', async () => {
    model = await callOnceThenReport('feature__ask_name');
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = questions(test);
    const resolved: { id: string; action: string }[] = [];
    disposeAfterTest(test.host.events.onEvent('elicitation.resolved', (r) => resolved.push(r)));
    const turn = await test.host.chat.send({ text: 'greet me', approveOnce: true });
    await waitFor(() => asked.length === 1, 'the question', 20_000);
    test.host.chat.stop(turn.conversationId);
    expect((await turn.done).status).toBe('stopped');
    await waitFor(() => resolved.length === 1, 'the question to end');
    expect(resolved).toEqual([{ id: asked[0]!.id, action: 'cancel' }]);
    expect(test.host.elicitation.pending()).toEqual([]);
  });

  it('"open this page first" (-32042) fails the call with its pages and shows each as the URL question, with the call it belongs to', async () => {
    remote = await startLegacyHttpServer('streamable');
    model = await callOnceThenReport('legacy__needs_page');
    test = await createChatHost({ legacy: { url: remote.url } }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = questions(test);
    const calls: { code?: string; pages?: unknown }[] = [];
    const turn = await test.host.chat.send({ text: 'go', approveOnce: true, onEvent: (e) => void (e.type === 'toolCall' && e.call.error ? calls.push(e.call.error) : undefined) });
    const outcome = await turn.done;
    expect(calls).toEqual([expect.objectContaining({ code: 'URL_ELICITATION_REQUIRED', pages: [expect.objectContaining({ url: 'https://example.com/consent' })] })]);
    expect(outcome.text).toContain('needs you to open a page');
    expect(outcome.text).toContain('https://example.com/consent');
    await waitFor(() => asked.length === 1, 'the page to be shown');
    expect(asked[0]).toMatchObject({ server: 'legacy', mode: 'url', url: 'https://example.com/consent', message: 'Approve access first.', conversationId: turn.conversationId, turnId: turn.turnId });
    // The person opens it (or not): the answer settles the question; the call had already failed.
    expect(test.host.elicitation.respond(asked[0]!.id, 'accept')).toBe(true);
  });
});
