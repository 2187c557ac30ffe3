/**
 * The task wire below the SDK, message by message, over an in-memory transport: the tasks
 * declaration of each era, a tool call's CreateTaskResult handed to the request that made it,
 * task notifications and listen acknowledgements, a legacy task's questions tied to its
 * tasks/result request, and the receiving side for requests a legacy server asks to run as tasks.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { currentRequestScope, inRequestScope, RunningRequestScope, type RequestScope } from '../../main/host/servers/request-scope';
import { declareTasks } from '../../main/host/servers/task-wire/declare';
import { TaskWire } from '../../main/host/servers/task-wire/wire';
import { disposeAfterTest } from '../helpers/dispose-after-test';

/** A transport whose peer is the test: `sent` is what went to the server, `fromServer` plays the server. */
class TestTransport implements Transport {
  readonly sent: Record<string, unknown>[] = [];
  onmessage?: (message: JSONRPCMessage, extra?: unknown) => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message as unknown as Record<string, unknown>);
  }
  fromServer(message: Record<string, unknown>): void {
    this.onmessage?.({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  }
}

/** A wire over a test transport, with what reached the SDK (and in which request's scope). */
function setup() {
  const wire = disposeAfterTest(new TaskWire({ adopt: () => undefined }));
  const inner = new TestTransport();
  const sdk = wire.wrap(inner);
  const delivered: { message: Record<string, unknown>; scope: RequestScope | undefined }[] = [];
  sdk.onmessage = (message) => delivered.push({ message: message as unknown as Record<string, unknown>, scope: currentRequestScope() });
  const send = (message: Record<string, unknown>) => sdk.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  return { wire, inner, delivered, send };
}

function scope(action = 'calling tool research'): RequestScope {
  return new RunningRequestScope('server', action);
}

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
const task = { taskId: 'T1', status: 'working', createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:00Z', ttlMs: 60_000, pollIntervalMs: 500 };

describe('declaring tasks', () => {
  it('legacy initialize: the 2025-11-25 tasks capability, with only the requests Harbor offers at all', () => {
    const initialize = (capabilities: Record<string, unknown>) =>
      declareTasks({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'h', version: '1' } } }).params!.capabilities;
    expect(initialize({ elicitation: { form: {} } })).toEqual({ elicitation: { form: {} }, tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } } });
    expect(initialize({ elicitation: {}, sampling: {} })).toMatchObject({ tasks: { requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } } });
    expect(initialize({})).toEqual({ tasks: { list: {}, cancel: {} } });
  });

  it('modern requests: the Tasks extension in the request\'s own clientCapabilities; other messages untouched', () => {
    const call = declareTasks({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: envelope } });
    expect((call.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } });
    const legacy = { jsonrpc: '2.0' as const, id: 2, method: 'tools/call', params: { name: 'x' } };
    expect(declareTasks(legacy)).toBe(legacy);
  });
});

describe('the task wire', () => {
  it('hands a tool call\'s CreateTaskResult to the request that made it; the SDK gets an error instead', async () => {
    const { wire, inner, delivered, send } = setup();
    const call = scope();
    await inRequestScope(call, () => send({ id: 7, method: 'tools/call', params: { name: 'research', _meta: envelope } }));
    expect((inner.sent[0]!.params as { _meta: Record<string, { extensions?: unknown }> })._meta['io.modelcontextprotocol/clientCapabilities']!.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    inner.fromServer({ id: 7, result: { resultType: 'task', ...task } });
    expect(delivered[0]!.message).toMatchObject({ id: 7, error: { code: -32603 } });
    expect(wire.takeCreated(call)).toEqual({ taskId: 'T1', status: 'working', createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt, ttlMs: 60_000, pollIntervalMs: 500 });
    expect(wire.takeCreated(call)).toBeUndefined();
    // An ordinary result passes as it came.
    await inRequestScope(call, () => send({ id: 8, method: 'tools/call', params: { name: 'quick' } }));
    inner.fromServer({ id: 8, result: { resultType: 'complete', content: [] } });
    expect(delivered[1]!.message).toMatchObject({ id: 8, result: { resultType: 'complete' } });
  });

  it('reads a tasks/get result stamped "task" as the standard result it is', async () => {
    const { inner, delivered, send } = setup();
    await send({ id: 3, method: 'tasks/get', params: { taskId: 'T1', _meta: envelope } });
    inner.fromServer({ id: 3, result: { resultType: 'task', ...task } });
    expect(delivered[0]!.message).toMatchObject({ id: 3, result: { resultType: 'complete', taskId: 'T1' } });
  });

  it('carries task notifications to whoever watches that task (not to the SDK), in both eras\' shapes', () => {
    const { wire, inner, delivered } = setup();
    const seen: unknown[] = [];
    const watch = wire.watch('T1', (t) => seen.push(t));
    inner.fromServer({ method: 'notifications/tasks', params: { ...task, status: 'completed', result: { content: [] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen:1' } } });
    inner.fromServer({ method: 'notifications/tasks/status', params: { taskId: 'T1', status: 'working', createdAt: 'a', lastUpdatedAt: 'b', ttl: 1000, pollInterval: 250 } });
    inner.fromServer({ method: 'notifications/tasks', params: { ...task, taskId: 'OTHER' } });
    expect(seen).toEqual([expect.objectContaining({ taskId: 'T1', status: 'completed', result: { content: [] } }), expect.objectContaining({ taskId: 'T1', status: 'working', ttlMs: 1000, pollIntervalMs: 250 })]);
    expect(delivered).toEqual([]);
    void watch.dispose();
  });

  it('learns from a listen acknowledgement which task ids the server will notify about', async () => {
    const { wire, inner, delivered, send } = setup();
    await send({ id: 'listen:4', method: 'subscriptions/listen', params: { notifications: { taskIds: ['T1', 'T2'] }, _meta: envelope } });
    inner.fromServer({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { taskIds: ['T1'] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen:4' } } });
    expect(wire.notifies('T1')).toBe(true);
    expect(wire.notifies('T2')).toBe(false);
    // The SDK still settles its listen with the acknowledgement.
    expect(delivered).toHaveLength(1);
  });

  it('delivers a legacy server\'s question about a task inside the tasks/result request waiting for that task', async () => {
    const { inner, delivered, send } = setup();
    const waiting = scope('waiting for task T1');
    await inRequestScope(waiting, () => send({ id: 9, method: 'tasks/result', params: { taskId: 'T1' } }));
    inner.fromServer({ id: 0, method: 'elicitation/create', params: { message: 'Which one?', requestedSchema: { type: 'object', properties: {} }, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'T1' } } } });
    inner.fromServer({ id: 1, method: 'elicitation/create', params: { message: 'Unrelated', requestedSchema: { type: 'object', properties: {} } } });
    expect(delivered.map((d) => d.scope)).toEqual([waiting, undefined]);
  });
});

describe('running a legacy server\'s request as a task', () => {
  const elicit = { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }, task: { ttl: 60_000 } };

  it('answers with the task at once, runs the request through the SDK, and serves tasks/get, tasks/result and tasks/list', async () => {
    const { inner, delivered, send } = setup();
    inner.fromServer({ id: 5, method: 'elicitation/create', params: elicit });
    const created = inner.sent[0] as { id: number; result: { task: { taskId: string; status: string; ttl: number } } };
    expect(created).toMatchObject({ id: 5, result: { task: { status: 'working', ttl: 60_000, pollInterval: expect.any(Number) } } });
    const taskId = created.result.task.taskId;
    // The SDK runs it under Harbor's own id, without the task part.
    const run = delivered[0]!.message as { id: string; method: string; params: Record<string, unknown> };
    expect(run).toMatchObject({ method: 'elicitation/create', params: { message: 'Your name?' } });
    expect(run.params.task).toBeUndefined();
    expect(run.id).toMatch(/^harbor-task:/);

    inner.fromServer({ id: 6, method: 'tasks/get', params: { taskId } });
    inner.fromServer({ id: 7, method: 'tasks/result', params: { taskId } });
    await new Promise((r) => setTimeout(r, 10));
    expect(inner.sent.find((m) => m.id === 6)).toMatchObject({ result: { taskId, status: 'working' } });
    expect(inner.sent.find((m) => m.id === 7)).toBeUndefined(); // waits for the answer

    // The SDK's answer never reaches the server as such: it becomes the task's result.
    await send({ id: run.id, result: { action: 'accept', content: { name: 'Ada' } } });
    await new Promise((r) => setTimeout(r, 10));
    expect(inner.sent.some((m) => m.id === run.id)).toBe(false);
    expect(inner.sent.find((m) => m.id === 7)).toMatchObject({ result: { action: 'accept', content: { name: 'Ada' }, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } } });
    inner.fromServer({ id: 8, method: 'tasks/list', params: {} });
    inner.fromServer({ id: 9, method: 'tasks/cancel', params: { taskId } });
    inner.fromServer({ id: 10, method: 'tasks/get', params: { taskId: 'nope' } });
    await new Promise((r) => setTimeout(r, 10));
    expect(inner.sent.find((m) => m.id === 8)).toMatchObject({ result: { tasks: [{ taskId, status: 'completed' }] } });
    expect(inner.sent.find((m) => m.id === 9)).toMatchObject({ error: { code: -32602 } });
    expect(inner.sent.find((m) => m.id === 10)).toMatchObject({ error: { code: -32602 } });
  });

  it('tasks/cancel cancels the running request in the SDK (the dialog closes) and ends the task cancelled', async () => {
    const { inner, delivered } = setup();
    inner.fromServer({ id: 5, method: 'sampling/createMessage', params: { messages: [], maxTokens: 10, task: {} } });
    const taskId = (inner.sent[0] as { result: { task: { taskId: string } } }).result.task.taskId;
    const runId = (delivered[0]!.message as { id: string }).id;
    inner.fromServer({ id: 6, method: 'tasks/cancel', params: { taskId } });
    await new Promise((r) => setTimeout(r, 10));
    expect(delivered[1]!.message).toMatchObject({ method: 'notifications/cancelled', params: { requestId: runId } });
    expect(inner.sent.find((m) => m.id === 6)).toMatchObject({ result: { taskId, status: 'cancelled' } });
    inner.fromServer({ id: 7, method: 'tasks/result', params: { taskId } });
    await new Promise((r) => setTimeout(r, 10));
    expect(inner.sent.find((m) => m.id === 7)).toMatchObject({ error: { code: -32602 } });
  });
});
