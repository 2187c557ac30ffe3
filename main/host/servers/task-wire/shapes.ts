import { z } from 'zod';
import type { TaskError, TaskStatus } from '../../../../preload/contract';

/** The Tasks extension's identifier (modern servers declare it under `capabilities.extensions`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** `_meta` key carrying the client's capabilities on every modern request. */
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
/** `_meta` key tying a 2025-11-25 message to the task it belongs to. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * One look at a task, whichever era reported it: the Tasks extension's DetailedTask (with its
 * inlined `inputRequests`, `result` or `error`), or a 2025-11-25 Task (whose input and result
 * travel through `tasks/result` instead).
 */
export interface TaskSnapshot {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
  /** Modern `input_required`: what the server asks, keyed by request key. */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** Modern `completed`: the CallToolResult. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** Modern `failed`: the JSON-RPC error. */
  readonly error?: TaskError;
}

const Status = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const Millis = z.number().nonnegative();
const JsonRpcError = z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() });

/** The Tasks extension's task, as `CreateTaskResult`, `tasks/get` and `notifications/tasks` carry it. */
export const ModernTask = z.looseObject({
  taskId: z.string().min(1),
  status: Status,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: Millis.nullable().optional(),
  pollIntervalMs: Millis.optional(),
  inputRequests: z.record(z.string(), z.unknown()).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: JsonRpcError.optional(),
});

/** The 2025-11-25 task (`tasks/get`, `tasks/cancel`, `notifications/tasks/status`). */
export const LegacyTask = z.looseObject({
  taskId: z.string().min(1),
  status: Status,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: Millis.nullable().optional(),
  pollInterval: Millis.optional(),
});

/** The 2025-11-25 answer to a task-augmented request. */
export const LegacyCreateTaskResult = z.looseObject({ task: LegacyTask });

/** `tasks/update` and `tasks/cancel` (modern) answer with an empty result. */
export const EmptyAck = z.looseObject({});

/** What every task carries, whichever era's names it came with. */
function snapshotOf(task: { taskId: string; status: TaskStatus; statusMessage?: string | undefined; createdAt: string; lastUpdatedAt: string }, ttlMs: number | null | undefined, pollIntervalMs: number | undefined): TaskSnapshot {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    ...(ttlMs !== undefined ? { ttlMs } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  };
}

export function fromModern(task: z.output<typeof ModernTask>): TaskSnapshot {
  const { error } = task;
  return {
    ...snapshotOf(task, task.ttlMs, task.pollIntervalMs),
    ...(task.status === 'input_required' && task.inputRequests ? { inputRequests: task.inputRequests } : {}),
    ...(task.status === 'completed' && task.result ? { result: task.result } : {}),
    ...(task.status === 'failed' && error ? { error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } } : {}),
  };
}

export function fromLegacy(task: z.output<typeof LegacyTask>): TaskSnapshot {
  return snapshotOf(task, task.ttl, task.pollInterval);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
