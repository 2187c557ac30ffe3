/**
 * The 2025-11-25 core tasks against the reference server, @modelcontextprotocol/server-everything
 * 2026.8.31 (legacy era), as a real process over stdio and over Streamable HTTP:
 * - simulate-research-query (execution.taskSupport "required") is called task-augmented, followed
 *   with tasks/get, and its report fetched with tasks/result — which also carries the
 *   clarification the task asks, answered as any elicitation;
 * - cancelling sends tasks/cancel, never notifications/cancelled;
 * - trigger-elicitation-request-async: the server asks Harbor to run an elicitation as a task
 *   (Harbor declares tasks.requests.elicitation.create), then polls Harbor's tasks/get and
 *   fetches tasks/result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskView, TrafficEntryData } from '../../preload/contract';
import { answerWith } from '../helpers/answers';
import { EVERYTHING_SERVER, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { startHttpEverythingServer, type RunningHttpServer } from '../helpers/http-server';

let test: TestHost | undefined;
let remote: RunningHttpServer | undefined;

afterEach(async () => {
  await test?.dispose();
  await remote?.kill();
  test = remote = undefined;
});

const everything = () => ({ command: NODE, args: [EVERYTHING_SERVER, 'stdio'] });


function wire(t: TestHost): { method?: string; direction: string; message: Record<string, unknown> }[] {
  return t.host.traffic.list({ server: 'everything' }).map((e: TrafficEntryData) => ({ method: e.method, direction: e.direction, message: JSON.parse(e.text) as Record<string, unknown> }));
}

const textOf = (result: { content: unknown[] }) => (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('legacy servers: 2025-11-25 tasks (server-everything)', () => {
  it('runs simulate-research-query as a task: task-augmented tools/call, tasks/get, then tasks/result', async () => {
    test = await createTestHost({ everything: everything() });
    const updates: TaskView[] = [];
    const result = await test.call('everything', 'simulate-research-query', { topic: 'tides' }, { task: { onUpdate: (t) => updates.push(t) } });
    expect(textOf(result)).toContain('# Research Report: tides');
    expect(updates.map((u) => u.statusMessage)).toEqual(expect.arrayContaining(['Gathering sources...', 'Generating report...']));
    expect(updates.at(-1)).toMatchObject({ era: 'legacy', status: 'completed', hasResult: true });
    const sent = wire(test).filter((m) => m.direction === 'out');
    const call = sent.find((m) => m.method === 'tools/call')!;
    expect((call.message.params as { task?: unknown }).task).toEqual({ ttl: expect.any(Number) });
    expect(sent.some((m) => m.method === 'tasks/get')).toBe(true);
    expect(sent.some((m) => m.method === 'tasks/result')).toBe(true);
    // Polled at the server's pollInterval (1 s): a four-second task, a handful of polls.
    expect(sent.filter((m) => m.method === 'tasks/get').length).toBeLessThanOrEqual(7);
  });

  it('answers the clarification a task asks (it arrives on tasks/result) with the same dialogs as any question', async () => {
    test = await createTestHost({ everything: everything() });
    const asked = answerWith(test, () => ({ action: 'accept', content: { interpretation: 'historical' } }));
    const updates: TaskView[] = [];
    const result = await test.call('everything', 'simulate-research-query', { topic: 'tides', ambiguous: true }, { task: { onUpdate: (t) => updates.push(t) } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain('could have multiple interpretations');
    expect(textOf(result)).toContain('**Clarification**: historical');
    expect(updates.some((u) => u.status === 'input_required')).toBe(true);
  });

  it('cancelling sends tasks/cancel, never notifications/cancelled', async () => {
    test = await createTestHost({ everything: everything() });
    const stop = new AbortController();
    const updates: TaskView[] = [];
    const call = test.call('everything', 'simulate-research-query', { topic: 'tides' }, { signal: stop.signal, task: { onUpdate: (t) => updates.push(t) } });
    await waitFor(() => updates.some((u) => u.statusMessage === 'Analyzing content...'), 'the task to get going');
    stop.abort();
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await waitFor(() => test!.host.tasks.list()[0]?.status === 'cancelled', 'the task to end cancelled');
    const sent = wire(test).filter((m) => m.direction === 'out');
    expect(sent.some((m) => m.method === 'tasks/cancel')).toBe(true);
    expect(sent.filter((m) => m.method === 'notifications/cancelled')).toEqual([]);
  });

  it('works over Streamable HTTP', async () => {
    remote = await startHttpEverythingServer();
    test = await createTestHost({ everything: { url: remote.url } });
    const result = await test.call('everything', 'simulate-research-query', { topic: 'currents' });
    expect(textOf(result)).toContain('# Research Report: currents');
    expect(test.host.tasks.list()[0]).toMatchObject({ server: 'everything', tool: 'simulate-research-query', era: 'legacy', status: 'completed' });
  });

  it('runs an elicitation the server asks for as a task (trigger-elicitation-request-async)', async () => {
    test = await createTestHost({ everything: everything() });
    const asked = answerWith(test, () => ({ action: 'accept', content: { name: 'Ada', favoriteColor: 'Blue' } }));
    const result = await test.call('everything', 'trigger-elicitation-request-async', {});
    expect(asked).toHaveLength(1);
    expect(textOf(result)).toContain('[COMPLETED] User provided the requested information!');
    expect(textOf(result)).toContain('- Name: Ada');
    const messages = wire(test);
    const request = messages.find((m) => m.direction === 'in' && m.method === 'elicitation/create')!;
    expect((request.message.params as { task?: unknown }).task).toBeDefined();
    // Harbor answered with the task at once, then served the server's polls and result fetch.
    const answer = messages.find((m) => m.direction === 'out' && m.method === undefined && m.message.id === request.message.id)!;
    expect((answer.message.result as { task?: { status?: string } }).task).toMatchObject({ status: 'working' });
    expect(messages.some((m) => m.direction === 'in' && m.method === 'tasks/get')).toBe(true);
    expect(messages.some((m) => m.direction === 'in' && m.method === 'tasks/result')).toBe(true);
    // Those tasks are the server's: they are not listed as Harbor's own.
    expect(test.host.tasks.list()).toEqual([]);
  });
});
