/**
 * Tasks in the chat, through a real Host in browser mode and the scripted model: the tool card
 * shows the task's live status; the question a task asks (modern inputRequests, or legacy
 * elicitations arriving on tasks/result) belongs to the chat call it runs for, and is shown once
 * per key; Stop sends tasks/cancel, never notifications/cancelled.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatToolCall, ElicitationRequestData } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { NODE, waitFor, type TestHost } from '../helpers/host';
import { TASKS_SERVER } from '../helpers/http-server';
import { createChatHost, everythingServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type RecordedRequest, type ScriptedModel } from '../fixtures/model/scripted-model';

let model: ScriptedModel | undefined;
let test: TestHost | undefined;
let scratch: string | undefined;

afterEach(async () => {
  await test?.dispose();
  await model?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  test = model = scratch = undefined;
});

function callOnceThenReport(tool: string, args: Record<string, unknown> = {}) {
  return startScriptedModel({
    script: [(request: RecordedRequest) => (request.toolResults.length > 0 ? { text: `tool said: ${request.toolResults.at(-1)!.content}` } : { toolCalls: [{ name: tool, arguments: args }] })],
    repeatLast: true,
  });
}

function watch(t: TestHost): { cards: ChatToolCall[]; questions: ElicitationRequestData[] } {
  const cards: ChatToolCall[] = [];
  const questions: ElicitationRequestData[] = [];
  disposeAfterTest(t.host.events.onEvent('chat.toolCall', (e) => cards.push(e.call)));
  disposeAfterTest(t.host.events.onEvent('elicitation.request', (q) => questions.push(q)));
  return { cards, questions };
}

function tasksServer(): { server: Record<string, unknown>; events: () => string[] } {
  scratch = mkdtempSync(join(tmpdir(), 'harbor-tasks-chat-'));
  const file = join(scratch, 'events.txt');
  return {
    server: { command: NODE, args: [TASKS_SERVER, '--events-file', file, '--poll-ms=100'] },
    events: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []),
  };
}

describe('tasks in the chat', () => {
  it('the card shows the task\'s status, and its questions belong to the call (each key once)', async () => {
    const fixture = tasksServer();
    model = await callOnceThenReport('tasks__interview');
    test = await createChatHost({ tasks: fixture.server }, { model: model.modelConfig(), host: { mode: 'web' } });
    const { cards, questions } = watch(test);
    const turn = await test.host.chat.send({ text: 'interview me', approveOnce: true });
    await waitFor(() => questions.length === 1, 'the first question', 20_000);
    // Several polls see the question while the person reads it: it is shown once.
    await new Promise((r) => setTimeout(r, 400));
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatchObject({ server: 'tasks', conversationId: turn.conversationId, turnId: turn.turnId, toolCallId: expect.any(String), message: 'What is your name?' });
    expect(cards.some((c) => c.task?.status === 'input_required')).toBe(true);
    expect(test.host.elicitation.respond(questions[0]!.id, 'accept', { name: 'Ada' })).toBe(true);
    await waitFor(() => questions.length === 2, 'the second question');
    expect(test.host.elicitation.respond(questions[1]!.id, 'accept', { mood: 'bright' })).toBe(true);
    expect((await turn.done).text).toBe('tool said: Hello Ada, you feel bright.');
    expect(cards.at(-1)).toMatchObject({ status: 'done', task: { status: 'completed' } });
  });

  it('Stop sends tasks/cancel, never notifications/cancelled', async () => {
    const fixture = tasksServer();
    model = await callOnceThenReport('tasks__forever');
    test = await createChatHost({ tasks: fixture.server }, { model: model.modelConfig(), host: { mode: 'web' } });
    const { cards } = watch(test);
    const turn = await test.host.chat.send({ text: 'work forever', approveOnce: true });
    await waitFor(() => cards.some((c) => c.task?.statusMessage?.startsWith('Still working')), 'the task to run', 20_000);
    expect(test.host.chat.stop(turn.conversationId)).toBe(true);
    expect((await turn.done).status).toBe('stopped');
    await waitFor(() => fixture.events().some((l) => l.startsWith('task-cancelled ')), 'tasks/cancel to reach the server');
    expect(fixture.events().filter((l) => l.startsWith('cancelled-notification'))).toEqual([]);
  });

  it('a legacy task\'s question, arriving on tasks/result, belongs to the chat call it runs for', async () => {
    model = await callOnceThenReport('everything__simulate-research-query', { topic: 'python', ambiguous: true });
    test = await createChatHost({ everything: everythingServer() }, { model: model.modelConfig(), host: { mode: 'web' } });
    const { questions } = watch(test);
    const turn = await test.host.chat.send({ text: 'research python', approveOnce: true });
    await waitFor(() => questions.length === 1, 'the clarification', 30_000);
    expect(questions[0]).toMatchObject({ server: 'everything', conversationId: turn.conversationId, turnId: turn.turnId, toolCallId: expect.any(String) });
    expect(test.host.elicitation.respond(questions[0]!.id, 'accept', { interpretation: 'snake' })).toBe(true);
    expect((await turn.done).text).toContain('**Clarification**: snake');
  });
});
