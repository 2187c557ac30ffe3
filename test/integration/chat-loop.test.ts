/**
 * The agent loop end to end: a real Host, real MCP servers (the feature fixture, server-everything)
 * as child processes, and the scripted OpenAI-compatible model on 127.0.0.1 — the model's side is
 * a script, everything else is what runs in the app.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import type { TestHost } from '../helpers/host';
import { FIXTURES, NODE, waitFor } from '../helpers/host';
import { createChatHost, eventLog, everythingServer, featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

let model: ScriptedModel | undefined;
let test: TestHost | undefined;
const cleanup: (() => void)[] = [];

afterEach(async () => {
  await test?.dispose();
  await model?.close();
  for (const fn of cleanup.splice(0)) fn();
  test = undefined;
  model = undefined;
});

function chatEvents<K extends 'chat.toolCall' | 'chat.delta' | 'chat.done' | 'elicitation.request' | 'consent.request'>(t: TestHost, name: K) {
  const seen: EventPayload<K>[] = [];
  disposeAfterTest(t.host.events.onEvent(name, (payload) => seen.push(payload)));
  return seen;
}

describe('chat loop', () => {
  it('runs a multi-server turn: a tool from each server, results back to the model, instructions fenced', async () => {
    model = await startScriptedModel({
      script: [
        {
          text: 'Let me check both.',
          toolCalls: [
            { name: 'feature__echo', arguments: { text: 'from feature' } },
            { name: 'everything__get-sum', arguments: { a: 2, b: 40 } },
          ],
        },
        { text: 'Both answered.' },
      ],
    });
    test = await createChatHost({ feature: featureServer(), everything: everythingServer() }, { model: model.modelConfig() });
    const log = eventLog();
    const turn = await test.host.chat.send({ text: 'use both servers', approveOnce: true, onEvent: log.onEvent });
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'Both answered.', steps: 2 });

    const first = model.requests[0]!;
    expect(first.toolNames).toEqual(expect.arrayContaining(['feature__echo', 'feature__slow', 'everything__get-sum', 'everything__echo']));
    expect(first.toolNames).toHaveLength(first.toolNames.length);
    const echo = first.tools.find((t) => t.name === 'feature__echo')!;
    expect(echo.description).toBe('[feature] Echo the text back.');
    // Instructions are in the system prompt, fenced and labelled as the server's (untrusted) text.
    expect(first.system).toContain('<server-instructions server="feature" trust="untrusted">');
    expect(first.system).toContain('Feature fixture for Harbor tests.');
    expect(first.system).toMatch(/<server-instructions server="everything" trust="untrusted">[\s\S]+<\/server-instructions>/);

    const second = model.requests[1]!;
    expect(second.toolResults).toHaveLength(2);
    expect(second.toolResults[0]!.content).toBe('from feature');
    expect(second.toolResults[1]!.content).toContain('42');

    const calls = log.events.flatMap((e) => (e.type === 'toolCall' && (e.call.status === 'done' || e.call.status === 'error') ? [e.call] : []));
    expect(calls.map((c) => [c.server, c.tool, c.status])).toEqual([
      ['feature', 'echo', 'done'],
      ['everything', 'get-sum', 'done'],
    ]);
    expect(log.text()).toBe('Let me check both.Both answered.');
  });

  it('turns a denied call into a tool error the model reads, and goes on', async () => {
    model = await startScriptedModel({
      script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'secret plans' } }] }, { text: 'Understood, I will not.' }],
    });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { interactiveConsent: true } });
    const requests = chatEvents(test, 'consent.request');
    const toolEvents = chatEvents(test, 'chat.toolCall');
    disposeAfterTest(test.host.events.onEvent('consent.request', (request) => {
      setTimeout(() => test!.host.consent.respond(request.id, 'deny'), 10);
    }));
    const turn = await test.host.chat.send({ text: 'echo my secret plans' });
    const outcome = await turn.done;
    expect(outcome.status).toBe('completed');
    expect(outcome.text).toBe('Understood, I will not.');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ kind: 'tool', server: 'feature', conversationId: turn.conversationId, arguments: { text: 'secret plans' } });
    expect(model.requests[1]!.toolResults[0]!.content).toBe('The user denied this call.');
    expect(toolEvents.map((e) => e.call.status)).toContain('awaiting-consent');
    const last = toolEvents.at(-1)!.call;
    expect(last).toMatchObject({ status: 'error', approval: 'denied', error: { code: 'CONSENT_DENIED' } });
    const stored = test.host.chat.open(turn.conversationId);
    const call = stored.turns[0]!.items.find((i) => i.kind === 'toolCall');
    expect(call).toMatchObject({ kind: 'toolCall', call: { approval: 'denied', status: 'error' } });
  });

  it('asks through the consent gate for every call and runs it once approved', async () => {
    model = await startScriptedModel({
      script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'ok' } }] }, { text: 'done' }],
    });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { interactiveConsent: true } });
    const requests = chatEvents(test, 'consent.request');
    disposeAfterTest(test.host.events.onEvent('consent.request', (request) => void test!.host.consent.respond(request.id, 'once')));
    const outcome = await (await test.host.chat.send({ text: 'echo ok' })).done;
    expect(outcome.status).toBe('completed');
    expect(requests).toHaveLength(1);
    expect(model.requests[1]!.toolResults[0]!.content).toBe('ok');
  });

  it('gives a failing tool\'s error back to the model, which recovers', async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'feature__fail', arguments: {} }] },
        { toolCalls: [{ name: 'feature__echo', arguments: { text: 'plan B' } }] },
        { text: 'Recovered with plan B.' },
      ],
    });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const log = eventLog();
    const outcome = await (await test.host.chat.send({ text: 'try', approveOnce: true, onEvent: log.onEvent })).done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'Recovered with plan B.', steps: 3 });
    expect(model.requests[1]!.toolResults[0]!.content).toBe('This tool always fails.');
    expect(model.requests[2]!.toolResults.at(-1)!.content).toBe('plan B');
    const failed = log.events.find((e) => e.type === 'toolCall' && e.call.tool === 'fail' && e.call.status === 'done');
    expect(failed).toMatchObject({ call: { result: { isError: true } } });
  });

  it('answers an unknown tool and bad arguments with tool errors, not a crash', async () => {
    model = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: 'feature__does_not_exist', arguments: {} },
            { name: 'feature__echo', arguments: '{"text": "unterminated' },
          ],
        },
        { text: 'I see, those do not work.' },
      ],
    });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const outcome = await (await test.host.chat.send({ text: 'call things', approveOnce: true })).done;
    expect(outcome.status).toBe('completed');
    const [unknown, bad] = model.requests[1]!.toolResults;
    expect(unknown!.content).toMatch(/^Unknown tool "feature__does_not_exist"/);
    expect(bad!.content).toMatch(/not valid JSON/);
  });

  it('gives a server crash and a timeout back to the model as tool errors', async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'crashy__work', arguments: {} }] },
        { toolCalls: [{ name: 'feature__slow', arguments: { steps: 1, delayMs: 3_000 } }] },
        { text: 'Both failed; I will tell the person.' },
      ],
    });
    test = await createChatHost(
      {
        crashy: { command: NODE, args: [join(FIXTURES, 'adversarial/crash-on-call.mjs')] },
        feature: featureServer({ timeoutMs: 500 }),
      },
      { model: model.modelConfig(), host: { restart: { maxAttempts: 0 } } },
    );
    const outcome = await (await test.host.chat.send({ text: 'work', approveOnce: true })).done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'Both failed; I will tell the person.' });
    expect(model.requests[1]!.toolResults[0]!.content).toMatch(/^The tool call failed \(CONNECTION_CLOSED\)/);
    expect(model.requests[2]!.toolResults.at(-1)!.content).toMatch(/^The tool call failed \(TIMEOUT\)/);
  });

  it('ends the turn with a clear note after maxSteps model steps', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'again' } }] }], repeatLast: true });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), chat: { maxSteps: 3 } });
    const outcome = await (await test.host.chat.send({ text: 'loop forever', approveOnce: true })).done;
    expect(outcome.status).toBe('maxSteps');
    expect(outcome.steps).toBe(3);
    expect(outcome.note).toMatch(/Stopped after 3 model steps/);
    expect(model.requests).toHaveLength(3);
    const stored = test.host.chat.open(outcome.conversationId);
    expect(stored.turns[0]!.status).toBe('maxSteps');
    expect(stored.turns[0]!.items.at(-1)).toMatchObject({ kind: 'note' });
  });

  it('Stop cancels the in-flight tool call (the server sees notifications/cancelled) and ends the turn', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'harbor-chat-stop-'));
    cleanup.push(() => rmSync(scratch, { recursive: true, force: true }));
    const file = join(scratch, 'events.txt');
    model = await startScriptedModel({
      script: [{ toolCalls: [{ name: 'feature__slow', arguments: { steps: 100, delayMs: 100 } }] }, { text: 'never asked' }],
    });
    test = await createChatHost({ feature: featureServer({}, ['--events-file', file]) }, { model: model.modelConfig() });

    const progress = chatEvents(test, 'chat.toolCall');
    const turn = await test.host.chat.send({ text: 'count slowly', approveOnce: true });
    await waitFor(() => progress.some((e) => e.progress !== undefined), 'a progress event from slow', 20_000);
    expect(test.host.chat.stop(turn.conversationId)).toBe(true);
    const outcome = await turn.done;
    expect(outcome.status).toBe('stopped');
    expect(model.requests).toHaveLength(1);
    await waitFor(() => existsSync(file) && /cancelled/.test(readFileSync(file, 'utf8')), 'the fixture to record the cancellation', 10_000);
    const call = progress.at(-1)!.call;
    expect(call).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    expect(test.host.chat.open(turn.conversationId).turns[0]!.status).toBe('stopped');
  });

  it('Stop during streaming keeps what was shown and closes the model stream', async () => {
    model = await startScriptedModel({ script: [{ text: 'I am thinking', hang: true }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const deltas = chatEvents(test, 'chat.delta');
    const turn = await test.host.chat.send({ text: 'think', approveOnce: true });
    await waitFor(() => deltas.length > 0, 'streamed text');
    test.host.chat.stop(turn.conversationId);
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'stopped', text: 'I am thinking' });
    await waitFor(() => model!.abandoned === 1, 'the model stream to be closed');
    const items = test.host.chat.open(turn.conversationId).turns[0]!.items;
    expect(items).toContainEqual({ kind: 'assistant', text: 'I am thinking' });
  });

  it('Stop while the consent dialog is open ends the turn and closes the dialog as a denial', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'x' } }] }, { text: 'unreached' }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { interactiveConsent: true } });
    const asked = chatEvents(test, 'consent.request');
    const resolved: string[] = [];
    disposeAfterTest(test.host.events.onEvent('consent.resolved', (r) => resolved.push(r.decision)));
    const turn = await test.host.chat.send({ text: 'echo x' });
    await waitFor(() => asked.length === 1, 'the consent request');
    test.host.chat.stop(turn.conversationId);
    expect(await turn.done).toMatchObject({ status: 'stopped' });
    expect(resolved).toEqual(['deny']);
    expect(model.requests).toHaveLength(1);
  });

  it('Stop while a server launch waits for consent ends the turn without asking the model', async () => {
    model = await startScriptedModel({ script: [{ text: 'unreached' }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { interactiveConsent: true, approveLaunches: false } });
    const asked = chatEvents(test, 'consent.request');
    const turn = await test.host.chat.send({ text: 'hi' });
    await waitFor(() => asked.length === 1, 'the launch consent request');
    expect(asked[0]).toMatchObject({ kind: 'launch', server: 'feature' });
    test.host.chat.stop(turn.conversationId);
    expect(await turn.done).toMatchObject({ status: 'stopped' });
    expect(model.requests).toHaveLength(0);
  });

  it('forwards progress as chat.toolCall events', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__slow', arguments: { steps: 3, delayMs: 20 } }] }, { text: 'counted' }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const events = chatEvents(test, 'chat.toolCall');
    const outcome = await (await test.host.chat.send({ text: 'count', approveOnce: true })).done;
    expect(outcome.status).toBe('completed');
    const progress = events.filter((e) => e.progress).map((e) => e.progress);
    // The last notification may lose the race with the result (the SDK drops progress once a
    // request is answered): the first ones always arrive, in order.
    expect(progress.slice(0, 2)).toEqual([
      { progress: 1, total: 3, message: 'step 1/3' },
      { progress: 2, total: 3, message: 'step 2/3' },
    ]);
    const statuses = events.map((e) => e.call.status);
    expect(statuses.slice(0, 2)).toEqual(['pending', 'running']);
    expect(statuses.at(-1)).toBe('done');
    expect(statuses.slice(2, -1).every((s) => s === 'progress')).toBe(true);
    expect(model.requests[1]!.toolResults[0]!.content).toBe('slow done 3/3');
  });

  it('shows a server\'s elicitation during a chat call and returns the person\'s answer', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__ask_name', arguments: {} }] }, { text: 'greeted' }] });
    // Browser mode, like the app: a question during a chat call says which call it belongs to.
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig(), host: { mode: 'web' } });
    const asked = chatEvents(test, 'elicitation.request');
    disposeAfterTest(test.host.events.onEvent('elicitation.request', (e) => void test!.host.elicitation.respond(e.id, 'accept', { name: 'Ada' })));
    const turn = await test.host.chat.send({ text: 'greet me', approveOnce: true });
    const outcome = await turn.done;
    expect(outcome.status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ conversationId: turn.conversationId, turnId: turn.turnId, server: 'feature', mode: 'form', message: 'What is your name?' });
    expect(model.requests[1]!.toolResults[0]!.content).toBe('Hello Ada');
  });

  it('uses search_tools then call_tool (through consent) when tool search is on, with a stable tool array', async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'search_tools', arguments: { query: 'add two numbers', limit: 3 } }] },
        { toolCalls: [{ name: 'call_tool', arguments: { name: 'feature__add', arguments: { a: 2, b: 3 } } }] },
        { text: 'It is 5.' },
      ],
    });
    test = await createChatHost(
      { feature: featureServer(), everything: everythingServer() },
      { model: model.modelConfig(), chat: { toolSearch: 'on', codeMode: 'off' }, host: { interactiveConsent: true } },
    );
    const requests = chatEvents(test, 'consent.request');
    disposeAfterTest(test.host.events.onEvent('consent.request', (request) => void test!.host.consent.respond(request.id, 'once')));
    const turn = await test.host.chat.send({ text: 'what is 2 + 3?' });
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'It is 5.' });
    for (const request of model.requests) expect(request.toolNames).toEqual(['search_tools', 'call_tool']);
    expect(model.requests[0]!.system).toContain('search_tools');
    const found = JSON.parse(model.requests[1]!.toolResults[0]!.content) as { matches: { name: string; server: string; inputSchema: unknown }[] };
    expect(found.matches[0]).toMatchObject({ name: 'feature__add', server: 'feature' });
    expect(found.matches[0]!.inputSchema).toMatchObject({ type: 'object', properties: { a: {}, b: {} } });
    expect(model.requests[2]!.toolResults.at(-1)!.content).toBe('5');
    // call_tool went through exactly the same gate as a direct call.
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ kind: 'tool', server: 'feature', tool: { name: 'add' }, arguments: { a: 2, b: 3 } });
    expect(test.host.chat.open(turn.conversationId).toolMode).toBe('search');
  });

  it('switches to tool search on its own when the definitions exceed the threshold', async () => {
    model = await startScriptedModel({ script: [{ text: 'ok' }, { text: 'ok again' }] });
    // 10 % of a 10,000-token window is 1,000 tokens: server-everything's ~1,300 exceed it.
    test = await createChatHost({ everything: everythingServer() }, { model: model.modelConfig({ contextWindow: 10_000 }), chat: { toolSearchThreshold: 0.1, codeMode: 'off' } });
    const first = await (await test.host.chat.send({ text: 'hi', approveOnce: true })).done;
    expect(model.requests[0]!.toolNames).toEqual(['search_tools', 'call_tool']);
    await (await test.host.chat.send({ conversationId: first.conversationId, text: 'hi again', approveOnce: true })).done;
    expect(model.requests[1]!.toolNames).toEqual(['search_tools', 'call_tool']);
  });

  it('does not offer disabled tools, and truncates large results for the model but keeps them whole', async () => {
    const long = 'x'.repeat(500);
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: long } }] }, { text: 'long' }] });
    test = await createChatHost({ feature: featureServer({ disabledTools: ['fail', 'mutate'] }) }, { model: model.modelConfig(), chat: { resultCapBytes: 100 } });
    const turn = await test.host.chat.send({ text: 'echo long', approveOnce: true });
    await turn.done;
    expect(model.requests[0]!.toolNames).not.toContain('feature__fail');
    expect(model.requests[0]!.toolNames).not.toContain('feature__mutate');
    expect(model.requests[0]!.toolNames).toContain('feature__echo');
    const seen = model.requests[1]!.toolResults[0]!.content;
    expect(seen.startsWith('x'.repeat(100))).toBe(true);
    expect(seen).toMatch(/truncated — 400 of 500 bytes were cut/);
    const call = test.host.chat.open(turn.conversationId).turns[0]!.items.find((i) => i.kind === 'toolCall');
    expect(call).toMatchObject({ call: { result: { content: [{ type: 'text', text: long }], truncatedBytes: 400 } } });
  });

  it('reports a model failure as the turn\'s error, without crashing', async () => {
    model = await startScriptedModel({ script: [{ error: { status: 500, message: 'model overloaded' } }] });
    test = await createChatHost({ feature: featureServer() }, { model: model.modelConfig() });
    const done = chatEvents(test, 'chat.done');
    const outcome = await (await test.host.chat.send({ text: 'hi', approveOnce: true })).done;
    expect(outcome.status).toBe('error');
    expect(outcome.error?.code).toBe('MODEL_ERROR');
    expect(outcome.error?.message).toMatch(/model overloaded/);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ status: 'error', error: { code: 'MODEL_ERROR' } });
  });

  it('headless without approval: the turn stops with CONSENT_REQUIRED', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'x' } }] }, { text: 'unreached' }] });
    test = await createChatHost({ feature: featureServer({ trusted: true }) }, { model: model.modelConfig() });
    const outcome = await (await test.host.chat.send({ text: 'echo x' })).done;
    expect(outcome.status).toBe('consentRequired');
    expect(outcome.error?.code).toBe('CONSENT_REQUIRED');
    expect(model.requests).toHaveLength(1);
    const stored = test.host.chat.open(outcome.conversationId).turns[0]!;
    expect(stored.status).toBe('consentRequired');
    expect(stored.items.find((i) => i.kind === 'toolCall')).toMatchObject({ call: { approval: 'required' } });
  });

  it('refuses to chat without a model and says how to add one', async () => {
    test = await createChatHost({ feature: featureServer() }, { host: { ollamaUrl: 'http://127.0.0.1:9' } });
    await expect(test.host.chat.send({ text: 'hi' })).rejects.toMatchObject({ code: 'MODEL_NOT_CONFIGURED', message: expect.stringMatching(/"model"/) });
    const status = await test.host.chat.status();
    expect(status.configured).toBe(false);
    expect(status.help).toMatch(/"provider": "anthropic"/);
    expect(status.ollama).toBeUndefined();
  });
});
