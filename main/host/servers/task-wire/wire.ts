import type { JSONRPCMessage, McpSubscription, Transport } from '@modelcontextprotocol/client';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../../lifecycle';
import { currentRequestScope, inRequestScope, type RequestScope } from '../request-scope';
import { proxyTransport } from '../transport-proxy';
import { declareTasks } from './declare';
import { BoundedMap, asNotification, asRequest, asResponse, errorResponse, paramsOf, type JsonRpcId } from './messages';
import { RECEIVER_METHODS, TaskReceiver } from './receiver';
import { LegacyTask, ModernTask, RELATED_TASK_META, fromLegacy, fromModern, isPlainObject, type TaskSnapshot } from './shapes';

/** Requests whose answer is still awaited, remembered at most (a cancelled one may never be answered). */
const MAX_AWAITED = 1000;

/**
 * What the SDK is told when a server answers a tool call with a task: SDK 2.4.0 knows no
 * `resultType: "task"` and would fail the call. The call's own code takes the task from
 * `takeCreated` instead (it never reads this text).
 */
const TASK_HANDED_OVER = 'The server runs this tool call as a task; Harbor follows it.';

/**
 * Tasks on one channel, below the SDK (which has no runtime for them): declares them era by era,
 * hands a tool call's `CreateTaskResult` to the code that made the call, carries a server's
 * task notifications to whoever follows that task, ties a legacy server's questions about a task
 * to the `tasks/result` request they belong to, and runs the requests a legacy server asks to run
 * as tasks (TaskReceiver). Owned by its channel.
 */
export class TaskWire implements Disposable {
  /** Modern tools/call requests in flight, by id, with the request of Harbor's that made them. */
  private readonly toolCalls = new BoundedMap<JsonRpcId, RequestScope>(MAX_AWAITED);
  private readonly created = new WeakMap<RequestScope, TaskSnapshot>();
  /** Modern tasks/get requests in flight. */
  private readonly taskGets = new BoundedMap<JsonRpcId, true>(MAX_AWAITED);
  /** Legacy tasks/result requests in flight, by task id: a server's question about that task belongs there. */
  private readonly resultStreams = new Map<string, RequestScope>();
  private readonly resultStreamIds = new BoundedMap<JsonRpcId, string>(MAX_AWAITED);
  /** Listen requests asking for task notifications, by id, with the task ids asked for. */
  private readonly listens = new BoundedMap<JsonRpcId, readonly string[]>(MAX_AWAITED);
  private readonly honored = new Set<string>();
  private readonly watchers = new Map<string, Set<(task: TaskSnapshot) => void>>();
  private receiver: TaskReceiver | undefined;
  private disposed = false;

  /** `adopt`: the channel's own keeping of listen streams (closed when it closes). */
  constructor(private readonly options: { readonly adopt: (subscription: McpSubscription) => void }) {
    trackDisposable(this);
  }

  /** The transport the SDK gets: this wire's hooks around `transport`. */
  wrap<T extends Transport>(transport: T): T {
    let toClient: ((message: JSONRPCMessage) => void) | undefined;
    const toServer = (message: JSONRPCMessage) => transport.send(message);
    this.receiver = new TaskReceiver({ toServer, toClient: (message) => toClient?.(message) });
    return proxyTransport(transport, {
      attach: (inject) => (toClient = inject),
      send: (message, options, forward) => {
        const response = asResponse(message);
        if (response && this.receiver?.ownsResponse(response.id)) {
          this.receiver.settle(response);
          return Promise.resolve();
        }
        const request = asRequest(message);
        if (!request) return forward(message, options);
        this.noteOutgoing(request);
        return forward(declareTasks(request) as JSONRPCMessage, options);
      },
      receive: (message, deliver) => this.onIncoming(message, deliver, toServer),
    });
  }

  /** The task a server answered the current request's tool call with, once (see TASK_HANDED_OVER). */
  takeCreated(scope: RequestScope | undefined = currentRequestScope()): TaskSnapshot | undefined {
    if (!scope) return undefined;
    const task = this.created.get(scope);
    this.created.delete(scope);
    return task;
  }

  /** Calls `listener` with every status notification the server sends about `taskId`. */
  watch(taskId: string, listener: (task: TaskSnapshot) => void): Disposable {
    let set = this.watchers.get(taskId);
    if (!set) this.watchers.set(taskId, (set = new Set()));
    set.add(listener);
    return toDisposable(() => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(taskId);
    });
  }

  /** Whether the server agreed (in a listen acknowledgement) to send notifications about `taskId`. */
  notifies(taskId: string): boolean {
    return this.honored.has(taskId);
  }

  /** A listen stream opened for task notifications: it ends with the channel. */
  adopt(subscription: McpSubscription): void {
    this.options.adopt(subscription);
  }

  private noteOutgoing(request: { id: JsonRpcId; method: string; params?: Record<string, unknown> }): void {
    const scope = currentRequestScope();
    const params = paramsOf(request);
    if (request.method === 'tools/call' && scope) this.toolCalls.set(request.id, scope);
    else if (request.method === 'tasks/get') this.taskGets.set(request.id, true);
    else if (request.method === 'tasks/result' && scope && typeof params.taskId === 'string') {
      this.resultStreams.set(params.taskId, scope);
      this.resultStreamIds.set(request.id, params.taskId);
    }
    else if (request.method === 'subscriptions/listen') {
      const taskIds = isPlainObject(params.notifications) ? params.notifications.taskIds : undefined;
      if (Array.isArray(taskIds)) this.listens.set(request.id, taskIds.filter((id): id is string => typeof id === 'string'));
    }
  }

  private onIncoming(message: JSONRPCMessage, deliver: (replacement?: JSONRPCMessage) => void, toServer: (message: JSONRPCMessage) => Promise<void>): void {
    const response = asResponse(message);
    if (response) return this.onResponse(response, message, deliver);
    const notification = asNotification(message);
    if (notification) {
      const params = paramsOf(notification);
      if (notification.method === 'notifications/tasks') return this.notify(ModernTask.safeParse(params), fromModern);
      if (notification.method === 'notifications/tasks/status') return this.notify(LegacyTask.safeParse(params), fromLegacy);
      if (notification.method === 'notifications/subscriptions/acknowledged') this.acknowledged(params);
      return deliver();
    }
    const request = asRequest(message);
    if (!request) return deliver();
    if (RECEIVER_METHODS.has(request.method)) {
      if (this.receiver) this.receiver.handle(request);
      // A send that fails means the connection is closing, which the channel reports.
      else void toServer(errorResponse(request.id, -32601, `Harbor runs no tasks for this server.`)).catch(() => undefined);
      return;
    }
    if (this.receiver && TaskReceiver.wantsTask(request)) return this.receiver.accept(request);
    // A legacy server's question about one of its tasks belongs to the tasks/result request waiting for it.
    const meta = isPlainObject(paramsOf(request)._meta) ? (paramsOf(request)._meta as Record<string, unknown>) : {};
    const related = meta[RELATED_TASK_META];
    const scope = isPlainObject(related) && typeof related.taskId === 'string' ? this.resultStreams.get(related.taskId) : undefined;
    if (scope && !scope.ended.aborted) return inRequestScope(scope, () => deliver());
    deliver();
  }

  private onResponse(response: NonNullable<ReturnType<typeof asResponse>>, message: JSONRPCMessage, deliver: (replacement?: JSONRPCMessage) => void): void {
    const scope = this.toolCalls.get(response.id);
    this.toolCalls.delete(response.id);
    const isTaskGet = this.taskGets.delete(response.id);
    const streamOf = this.resultStreamIds.get(response.id);
    if (streamOf !== undefined) {
      this.resultStreamIds.delete(response.id);
      this.resultStreams.delete(streamOf);
    }
    if (!('result' in response) || response.result.resultType !== 'task') return deliver();
    if (scope) {
      const parsed = ModernTask.safeParse(response.result);
      if (parsed.success) {
        this.created.set(scope, fromModern(parsed.data));
        return deliver(errorResponse(response.id, -32603, TASK_HANDED_OVER));
      }
    }
    // Some servers stamp tasks/get results "task" (the extension's own examples do); it is the standard result of tasks/get.
    if (isTaskGet) return deliver({ ...message, result: { ...response.result, resultType: 'complete' } } as JSONRPCMessage);
    deliver();
  }

  private notify<T>(parsed: { success: true; data: T } | { success: false }, normalize: (task: T) => TaskSnapshot): void {
    if (!parsed.success) return;
    const task = normalize(parsed.data);
    for (const listener of [...(this.watchers.get(task.taskId) ?? [])]) listener(task);
  }

  private acknowledged(params: Record<string, unknown>): void {
    const meta = isPlainObject(params._meta) ? params._meta : {};
    const id = meta['io.modelcontextprotocol/subscriptionId'];
    const asked = typeof id === 'string' || typeof id === 'number' ? this.listens.get(id) : undefined;
    if (!asked) return;
    const notifications = isPlainObject(params.notifications) ? params.notifications : {};
    const granted = Array.isArray(notifications.taskIds) ? notifications.taskIds : [];
    for (const taskId of asked) if (granted.includes(taskId)) this.honored.add(taskId);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    this.watchers.clear();
    this.receiver?.dispose();
  }
}
