import type { CallToolResult, Client, McpSubscription, Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { Era } from '../../../../preload/contract';
import type { SdkRequestOptions } from '../requests';
import { EmptyAck, LegacyCreateTaskResult, LegacyTask, ModernTask, fromLegacy, fromModern, type TaskSnapshot } from './shapes';
import type { TaskWire } from './wire';

/** How a tool call began: its result, or a task that will carry it. */
export type ToolCallStart = { readonly kind: 'result'; readonly result: CallToolResult } | { readonly kind: 'task'; readonly task: TaskSnapshot };

/** A tool result as a task delivers it (a `CallToolResult`; `content` defaults to none). */
export const TaskToolResult = z.looseObject({
  content: z.array(z.record(z.string(), z.unknown())).default([]),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

/** How long a legacy server keeps a task Harbor asks it to run (it may keep it shorter or longer). */
const REQUESTED_TTL_MS = 60 * 60_000;

/**
 * Whether to ask a legacy server to run `tool` as a task: it offers task-augmented tool calls and
 * the tool says tasks are required or welcome (2025-11-25 `execution.taskSupport`).
 */
export function runsAsLegacyTask(capabilities: Record<string, unknown> | undefined, tool: Tool | undefined): boolean {
  const tasks = capabilities?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  if (!tasks?.requests?.tools?.call) return false;
  const support = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  return support === 'required' || support === 'optional';
}

/**
 * `tools/call`, ready for a task: a legacy server is asked to run it as one when `asTask`; a
 * modern server decides itself, and its `CreateTaskResult` comes back through the wire.
 */
export function startToolCall(
  client: Client,
  wire: TaskWire | undefined,
  call: { readonly name: string; readonly args: Record<string, unknown> | undefined; readonly asTask: boolean },
  options: SdkRequestOptions,
): Promise<ToolCallStart> {
  const base = { name: call.name, ...(call.args ? { arguments: call.args } : {}) };
  if (call.asTask) {
    return client
      .request({ method: 'tools/call', params: { ...base, task: { ttl: REQUESTED_TTL_MS } } }, LegacyCreateTaskResult, options)
      .then((created) => ({ kind: 'task', task: fromLegacy(created.task) }));
  }
  // Not async: one `then` on the SDK's promise, the plain result's path without a frame of its own.
  // Its callbacks run in the context `then` was called in (the request's scope), as an await's would.
  return (client.callTool(base, options) as Promise<CallToolResult>).then(
    (result): ToolCallStart => ({ kind: 'result', result }),
    (error: unknown): ToolCallStart => {
      const task = wire?.takeCreated();
      if (task) return { kind: 'task', task };
      throw error;
    },
  );
}

export async function getTask(client: Client, era: Era, taskId: string, options: SdkRequestOptions): Promise<TaskSnapshot> {
  if (era === 'modern') return fromModern(await client.request({ method: 'tasks/get', params: { taskId } }, ModernTask, options));
  return fromLegacy(await client.request({ method: 'tasks/get', params: { taskId } }, LegacyTask, options));
}

/** Modern: the person's answers to a task's `inputRequests`. */
export async function updateTask(client: Client, taskId: string, inputResponses: Record<string, unknown>, options: SdkRequestOptions): Promise<void> {
  await client.request({ method: 'tasks/update', params: { taskId, inputResponses } } as never, EmptyAck, options);
}

/** Asks the server to stop the task (never `notifications/cancelled`, which both task specifications rule out). */
export async function cancelTask(client: Client, era: Era, taskId: string, options: SdkRequestOptions): Promise<void> {
  await client.request({ method: 'tasks/cancel', params: { taskId } }, era === 'modern' ? EmptyAck : z.looseObject({}), options);
}

/**
 * Legacy: the task's result (waiting until it ends). On the way the server may send the
 * questions the task needs answered, which reach the person as every elicitation does.
 */
export async function legacyTaskResult(client: Client, taskId: string, options: SdkRequestOptions): Promise<CallToolResult> {
  return (await client.request({ method: 'tasks/result', params: { taskId } }, TaskToolResult, options)) as CallToolResult;
}

/** Legacy: the server's own list of tasks (`tasks/list`), every page. */
export async function listLegacyTasks(client: Client, options: SdkRequestOptions): Promise<TaskSnapshot[]> {
  const page = z.looseObject({ tasks: z.array(LegacyTask), nextCursor: z.string().optional() });
  const tasks: TaskSnapshot[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 64; pages += 1) {
    const result = await client.request({ method: 'tasks/list', params: cursor ? { cursor } : {} }, page, options);
    tasks.push(...result.tasks.map(fromLegacy));
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return tasks;
}

/**
 * Modern: a `subscriptions/listen` stream for one task's `notifications/tasks`. Undefined when the
 * server does not agree to send them (its acknowledgement leaves the task out): polling goes on.
 */
export async function listenForTask(client: Client, wire: TaskWire, taskId: string, signal: AbortSignal, timeoutMs: number): Promise<McpSubscription | undefined> {
  const subscription = await client.listen({ taskIds: [taskId] } as never, { signal, timeout: timeoutMs });
  if (!wire.notifies(taskId)) {
    await subscription.close().catch(() => undefined); // not needed after all: it also ends with the channel
    return undefined;
  }
  wire.adopt(subscription);
  return subscription;
}
