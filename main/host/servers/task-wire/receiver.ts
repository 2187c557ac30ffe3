import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { TaskStatus } from '../../../../preload/contract';
import { markAsDisposed, trackDisposable, type Disposable } from '../../lifecycle';
import { INVALID_PARAMS, errorResponse, paramsOf, resultResponse, type JsonRpcId, type WireRequest, type WireResponse } from './messages';
import { RELATED_TASK_META, TERMINAL_STATUSES, isPlainObject } from './shapes';

/** What a 2025-11-25 server may ask Harbor to run as a task, once Harbor declared it. */
export const AUGMENTABLE_REQUESTS = ['elicitation/create', 'sampling/createMessage'] as const;
/** The task methods a server sends Harbor about the tasks Harbor runs for it. */
export const RECEIVER_METHODS = new Set(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']);

const DEFAULT_TTL_MS = 10 * 60_000;
/** Harbor keeps a server's task (and the person's answer in it) at most this long. */
const MAX_TTL_MS = 60 * 60_000;
const POLL_INTERVAL_MS = 1_000;
/** Prefix of the ids the SDK sees for the requests Harbor runs as tasks. */
const SYNTHETIC_PREFIX = 'harbor-task:';

interface ReceivedTask {
  readonly taskId: string;
  readonly syntheticId: string;
  readonly method: string;
  readonly createdAt: string;
  readonly ttlMs: number;
  status: TaskStatus;
  statusMessage: string;
  lastUpdatedAt: string;
  outcome?: { readonly result: Record<string, unknown> } | { readonly error: { code: number; message: string; data?: unknown } };
  readonly finished: Promise<void>;
  readonly finish: () => void;
  readonly expiry: ReturnType<typeof setTimeout>;
}

export interface ReceiverIo {
  /** Sends a message to the server (past the traffic tap). */
  toServer(message: JSONRPCMessage): Promise<void>;
  /** Hands the SDK a message as if the server had sent it. */
  toClient(message: JSONRPCMessage): void;
  readonly now?: () => number;
}

/**
 * The receiving side of 2025-11-25 tasks: a legacy server that asks the person something (an
 * elicitation, or a sampling request where Harbor offers sampling) may ask for it as a task. The
 * request is answered at once with the task; the SDK runs it as usual — the same dialogs, trust
 * rules and routing as any request — under an id of Harbor's own; its answer becomes the task's
 * result, which the server fetches with `tasks/result` (waiting while the person decides), and
 * `tasks/get`, `tasks/list` and `tasks/cancel` are answered from here.
 */
export class TaskReceiver implements Disposable {
  private readonly tasks = new Map<string, ReceivedTask>();
  private readonly bySyntheticId = new Map<string, ReceivedTask>();
  private readonly now: () => number;
  private disposed = false;

  constructor(private readonly io: ReceiverIo) {
    this.now = io.now ?? Date.now;
    trackDisposable(this);
  }

  /** A request the server asked to run as a task. */
  static wantsTask(request: WireRequest): boolean {
    return (AUGMENTABLE_REQUESTS as readonly string[]).includes(request.method) && isPlainObject(paramsOf(request).task);
  }

  /** Accepts a task-augmented request: answers with the task, then runs the request itself through the SDK. */
  accept(request: WireRequest): void {
    const { task: wanted, ...params } = paramsOf(request);
    const askedTtl = isPlainObject(wanted) && typeof wanted.ttl === 'number' && wanted.ttl > 0 ? wanted.ttl : DEFAULT_TTL_MS;
    const ttlMs = Math.min(askedTtl, MAX_TTL_MS);
    const taskId = randomUUID();
    const syntheticId = `${SYNTHETIC_PREFIX}${taskId}`;
    const created = new Date(this.now()).toISOString();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const expiry = setTimeout(() => this.forget(taskId), ttlMs);
    expiry.unref?.();
    const task: ReceivedTask = {
      taskId,
      syntheticId,
      method: request.method,
      createdAt: created,
      lastUpdatedAt: created,
      ttlMs,
      status: 'working',
      statusMessage: request.method === 'elicitation/create' ? 'Waiting for the person to answer.' : 'Waiting for the person to review the request.',
      finished,
      finish,
      expiry,
    };
    this.tasks.set(taskId, task);
    this.bySyntheticId.set(syntheticId, task);
    // A send that fails means the connection is closing, which the channel reports; the task is followed locally.
    void this.io.toServer(resultResponse(request.id, { task: this.describe(task) })).catch(() => undefined);
    this.io.toClient({ jsonrpc: '2.0', id: syntheticId, method: request.method, params } as JSONRPCMessage);
  }

  /** The SDK answered one of the requests run as a task. */
  ownsResponse(id: JsonRpcId): boolean {
    return typeof id === 'string' && this.bySyntheticId.has(id);
  }

  settle(response: WireResponse): void {
    const task = this.bySyntheticId.get(String(response.id));
    if (!task || TERMINAL_STATUSES.has(task.status)) return;
    if ('result' in response) {
      task.outcome = { result: response.result };
      this.update(task, 'completed', 'Answered.');
    } else {
      task.outcome = { error: response.error };
      this.update(task, 'failed', response.error.message);
    }
  }

  /** Answers a task method the server sent (tasks/get, tasks/result, tasks/list, tasks/cancel). */
  handle(request: WireRequest): void {
    void this.answer(request).then(
      (reply) => this.io.toServer(reply),
      () => undefined,
    );
  }

  private async answer(request: WireRequest): Promise<JSONRPCMessage> {
    if (request.method === 'tasks/list') return resultResponse(request.id, { tasks: [...this.tasks.values()].map((t) => this.describe(t)) });
    const taskId = paramsOf(request).taskId;
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task) return errorResponse(request.id, INVALID_PARAMS, `Harbor has no task "${String(taskId)}" (it finished more than its time-to-live ago, or never existed).`);
    switch (request.method) {
      case 'tasks/get':
        return resultResponse(request.id, this.describe(task));
      case 'tasks/cancel':
        if (TERMINAL_STATUSES.has(task.status)) return errorResponse(request.id, INVALID_PARAMS, `Cannot cancel task "${task.taskId}": it is already ${task.status}.`);
        // The SDK aborts the running request: an open dialog closes as cancelled.
        this.io.toClient({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: task.syntheticId, reason: 'The server cancelled the task.' } } as JSONRPCMessage);
        this.update(task, 'cancelled', 'Cancelled by the server.');
        return resultResponse(request.id, this.describe(task));
      default: {
        await task.finished;
        const related = { [RELATED_TASK_META]: { taskId: task.taskId } };
        const outcome = task.outcome;
        if (outcome && 'result' in outcome) {
          const meta = isPlainObject(outcome.result._meta) ? outcome.result._meta : {};
          return resultResponse(request.id, { ...outcome.result, _meta: { ...meta, ...related } });
        }
        if (outcome) return { jsonrpc: '2.0', id: request.id, error: outcome.error } as JSONRPCMessage;
        return errorResponse(request.id, INVALID_PARAMS, `Task "${task.taskId}" was cancelled; it has no result.`);
      }
    }
  }

  private update(task: ReceivedTask, status: TaskStatus, message: string): void {
    task.status = status;
    task.statusMessage = message;
    task.lastUpdatedAt = new Date(this.now()).toISOString();
    if (TERMINAL_STATUSES.has(status)) task.finish();
  }

  private describe(task: ReceivedTask): Record<string, unknown> {
    return {
      taskId: task.taskId,
      status: task.status,
      statusMessage: task.statusMessage,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttl: task.ttlMs,
      pollInterval: POLL_INTERVAL_MS,
    };
  }

  private forget(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (!task) return;
    clearTimeout(task.expiry);
    this.tasks.delete(taskId);
    this.bySyntheticId.delete(task.syntheticId);
    task.finish();
  }

  /** The connection is gone: nobody can fetch these results any more. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    for (const taskId of [...this.tasks.keys()]) this.forget(taskId);
  }
}
