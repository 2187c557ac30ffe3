import type { Client } from '@modelcontextprotocol/client';
import type { TaskError, TaskStatus } from '../../../preload/contract';
import { DisposableStore, markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { CallOptions } from '../servers/connection';
import type { ConnectionInfo } from '../servers/connection-types';
import type { SdkRequestOptions } from '../servers/requests';
import { TaskToolResult, cancelTask, getTask, legacyTaskResult, listenForTask, updateTask } from '../servers/task-wire/requests';
import { TASKS_EXTENSION, TERMINAL_STATUSES, type TaskSnapshot } from '../servers/task-wire/shapes';
import type { TaskWire } from '../servers/task-wire/wire';
import { isUnknownTask, jsonRpcErrorOf } from './failures';
import { UnanswerableInput, answerInputRequest } from './inputs';
import type { TaskRecord } from './rows';

/** What following a task needs of a server's connection (ServerConnection is one). */
export interface TaskConnection {
  readonly info: ConnectionInfo;
  readonly tasks: TaskWire | undefined;
  requestOn<T>(action: string, options: CallOptions, run: (client: Client, requestOptions: SdkRequestOptions) => Promise<T>): Promise<T>;
}

export interface FollowerDeps {
  /** The server's connection, connecting it if needed (it may restart while a task runs). */
  readonly connect: () => Promise<TaskConnection>;
  /** Every change of the task, to keep and to announce. */
  readonly changed: (record: TaskRecord) => void;
  /** Per-request timeout of the task methods (the server's own setting). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

/** When a server suggests no interval. */
const DEFAULT_POLL_MS = 1_000;
/** Never closer than this, whatever a server suggests. */
const MIN_POLL_MS = 100;
/** The longest wait between two tries while the server cannot be reached. */
const MAX_RETRY_MS = 30_000;
/** A legacy `tasks/result` waits for the whole task: it must not time out (and cancel) under it. */
const RESULT_WAIT_MS = 24 * 60 * 60_000;
const CANCEL_TIMEOUT_MS = 10_000;

/**
 * Follows one task until it ends: `tasks/get` at the server's `pollIntervalMs` (never faster; the
 * server's notifications, where it sends them, arrive sooner), the person's answers to what the
 * task asks (modern: `inputRequests`, each key shown once, sent with `tasks/update`; legacy: the
 * questions arrive on `tasks/result`), then the result or the error. Stopping it (`dispose`)
 * leaves the task running on the server, to be followed again on the next start; `cancel` asks
 * the server to stop it.
 */
export class TaskFollower implements Disposable {
  private current: TaskRecord;
  private readonly stop = new AbortController();
  private readonly owned = new DisposableStore();
  private readonly now: () => number;
  /** Wakes the wait before the next poll (stop, or an end the server announced). */
  private wake: (() => void) | undefined;
  private lastPollAt: number;
  private failures = 0;
  /** Modern input keys being asked now, and answers not yet delivered. */
  private readonly asking = new Set<string>();
  private readonly unanswerable = new Set<string>();
  private readonly answers = new Map<string, unknown>();
  private answering: Promise<void> = Promise.resolve();
  /** Legacy: the `tasks/result` request under way. */
  private resultStream: Promise<void> | undefined;
  /** The wire this task is watched (and listened for) on. */
  private watchedOn: TaskWire | undefined;
  private watch: Disposable | undefined;
  /** Set once the task ended (or Harbor stopped following it). */
  readonly ended: Promise<TaskRecord>;
  private resolveEnded!: (record: TaskRecord) => void;

  constructor(
    record: TaskRecord,
    private readonly deps: FollowerDeps,
    initial?: TaskSnapshot,
  ) {
    trackDisposable(this);
    this.now = deps.now ?? Date.now;
    this.current = record;
    this.lastPollAt = this.now();
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    if (initial) this.apply(initial);
    void this.run();
  }

  get record(): TaskRecord {
    return this.current;
  }

  /** Ended, with its outcome in hand (a legacy task reported completed is not, until tasks/result answers). */
  get isFinished(): boolean {
    return this.current.endedAt !== undefined;
  }

  /**
   * Asks the server to stop the task (`tasks/cancel`). Resolves false when the task has already
   * ended. Whether and when it stops is the server's: following goes on until it says.
   */
  async cancel(): Promise<boolean> {
    if (this.isFinished) return false;
    this.update({ cancelRequested: true });
    try {
      const connection = await this.deps.connect();
      const era = this.current.era;
      await connection.requestOn(`cancelling task ${this.current.taskId}`, { timeoutMs: Math.min(this.deps.timeoutMs ?? CANCEL_TIMEOUT_MS, CANCEL_TIMEOUT_MS) }, (client, options) =>
        cancelTask(client, era, this.current.taskId, options),
      );
    } catch (error) {
      // Already ended on the server: the next look says how.
      if (!isUnknownTask(error)) throw error;
    }
    this.wakeUp();
    return true;
  }

  private async run(): Promise<void> {
    // Notifications (where the server sends them) from the start, not only from the first poll.
    await this.deps.connect().then(
      (connection) => this.watchOn(connection),
      () => undefined,
    );
    while (!this.stop.signal.aborted && !this.isFinished) {
      await this.pause(this.delay());
      if (this.stop.signal.aborted || this.isFinished) break;
      if (this.outlivedTtl()) {
        this.finish('failed', { error: { code: -32001, message: `The task did not finish within its time-to-live (${Math.round((this.current.ttlMs ?? 0) / 1000)} s); the server may have discarded it.` } });
        break;
      }
      try {
        const connection = await this.deps.connect();
        this.watchOn(connection);
        const era = this.current.era;
        const snapshot = await connection
          .requestOn(`checking task ${this.current.taskId}`, this.requestOptions(), (client, options) => getTask(client, era, this.current.taskId, options))
          // The next poll keeps its distance from this one's answer: never sooner than the interval, as the server sees it.
          .finally(() => (this.lastPollAt = this.now()));
        this.failures = 0;
        this.apply(snapshot);
        this.continueWith(connection, snapshot);
      } catch (error) {
        this.lastPollAt = this.now();
        if (this.stop.signal.aborted) break;
        if (isUnknownTask(error) && this.current.cancelRequested) {
          // A server may forget a task as soon as it is cancelled.
          this.finish('cancelled', { statusMessage: 'Cancelled.' });
          break;
        }
        if (isUnknownTask(error)) {
          const reason = jsonRpcErrorOf(error);
          this.finish('failed', { error: { code: reason?.code ?? -32602, message: `The server no longer knows this task (${reason?.message ?? 'unknown task'}): it may have restarted, or discarded the task.` } });
          break;
        }
        // The server restarting, the network, a slow answer: try again, less often.
        this.failures += 1;
      }
    }
    this.resolveEnded(this.current);
  }

  /** What to do after a look at the task: answer what it asks, or fetch how it ended. */
  private continueWith(connection: TaskConnection, snapshot: TaskSnapshot): void {
    if (this.current.era === 'modern') {
      if (snapshot.status === 'input_required' && snapshot.inputRequests) this.answerInputs(connection, snapshot.inputRequests);
      return;
    }
    // Legacy: the questions of an input_required task, and the result of an ended one, come from tasks/result.
    if (snapshot.status === 'input_required' || snapshot.status === 'completed' || snapshot.status === 'failed') this.fetchLegacyResult(connection);
  }

  /** Takes in one look at the task (a poll, a notification, or the task as created). */
  private apply(snapshot: TaskSnapshot): void {
    if (this.isFinished || snapshot.taskId !== this.current.taskId) return;
    const facts = {
      statusMessage: snapshot.statusMessage,
      createdAt: snapshot.createdAt,
      lastUpdatedAt: snapshot.lastUpdatedAt,
      ...(snapshot.ttlMs !== undefined ? { ttlMs: snapshot.ttlMs } : {}),
      ...(snapshot.pollIntervalMs !== undefined ? { pollIntervalMs: snapshot.pollIntervalMs } : {}),
    };
    if (this.current.era === 'modern' && snapshot.status === 'completed') {
      const result = TaskToolResult.safeParse(snapshot.result);
      if (result.success) this.finish('completed', { ...facts, result: result.data });
      else if (snapshot.result !== undefined) this.finish('failed', { ...facts, error: { code: -32603, message: 'The server reported the task completed, but its result is not a tool result.' } });
      // Completed without its result (a notification may leave it out): the next tasks/get carries it.
      else this.update({ ...facts, status: 'completed' });
      return;
    }
    if (this.current.era === 'modern' && snapshot.status === 'failed') {
      this.finish('failed', { ...facts, error: snapshot.error ?? { code: -32603, message: snapshot.statusMessage ?? 'The task failed; the server gave no error.' } });
      return;
    }
    if (snapshot.status === 'cancelled') {
      this.finish('cancelled', facts);
      return;
    }
    // Legacy completed/failed: the outcome comes from tasks/result; until then it shows as reported.
    this.update({ ...facts, status: snapshot.status });
  }

  /** Modern: asks the person what the task needs (each key once), then sends the answers. */
  private answerInputs(connection: TaskConnection, inputRequests: Readonly<Record<string, unknown>>): void {
    const fresh = Object.keys(inputRequests).filter((key) => !this.current.answeredKeys.includes(key) && !this.asking.has(key) && !this.answers.has(key) && !this.unanswerable.has(key));
    if (fresh.length === 0 && this.answers.size === 0) return;
    for (const key of fresh) this.asking.add(key);
    // Failed: the answers are kept and sent with the next poll, the unasked keys asked again then.
    this.answering = this.answering.then(() => this.askAndSend(connection, fresh, inputRequests)).catch(() => undefined);
  }

  private async askAndSend(connection: TaskConnection, keys: readonly string[], inputRequests: Readonly<Record<string, unknown>>): Promise<void> {
    const taskId = this.current.taskId;
    const origin = this.current.origin;
    try {
      await connection.requestOn(`answering task ${taskId}`, { ...this.requestOptions(), ...(origin ? { origin } : {}) }, async (client, options) => {
        // Asked inside this request: a question shows with the chat call the task runs for.
        const signal = AbortSignal.any([options.signal ?? new AbortController().signal, this.stop.signal]);
        for (const key of keys) {
          try {
            this.answers.set(key, await answerInputRequest(client, key, inputRequests[key], signal));
          } catch (error) {
            if (!(error instanceof UnanswerableInput)) throw error;
            this.unanswerable.add(key);
          } finally {
            this.asking.delete(key);
          }
        }
        if (this.answers.size === 0 || this.isFinished) return;
        const sending = new Map(this.answers);
        await updateTask(client, taskId, Object.fromEntries(sending), options);
        for (const key of sending.keys()) this.answers.delete(key);
        this.update({ answeredKeys: [...this.current.answeredKeys, ...sending.keys()] });
      });
    } finally {
      for (const key of keys) this.asking.delete(key);
    }
  }

  /** Legacy: `tasks/result` once, which carries the task's questions and then its outcome. */
  private fetchLegacyResult(connection: TaskConnection): void {
    if (this.resultStream) return;
    const taskId = this.current.taskId;
    const origin = this.current.origin;
    this.resultStream = connection
      .requestOn(`waiting for task ${taskId}`, { timeoutMs: RESULT_WAIT_MS, ...(origin ? { origin } : {}) }, (client, options) => legacyTaskResult(client, taskId, options))
      .then(
        (result) => {
          const parsed = TaskToolResult.safeParse(result);
          if (parsed.success) this.finish(this.current.status === 'failed' ? 'failed' : 'completed', { result: parsed.data });
          else this.finish('failed', { error: { code: -32603, message: 'The server answered tasks/result with something that is not a tool result.' } });
        },
        (error: unknown) => {
          const rpc = jsonRpcErrorOf(error);
          // The task's own JSON-RPC error is its outcome; anything else (the connection) is tried again.
          if (rpc && !isUnknownTask(error)) this.finish('failed', { error: rpc });
          else this.resultStream = undefined;
        },
      );
  }

  /** Listens for the server's notifications about this task (on the wire of the connection now). */
  private watchOn(connection: TaskConnection): void {
    const wire = connection.tasks;
    if (!wire || wire === this.watchedOn) return;
    this.watchedOn = wire;
    if (this.watch) {
      this.owned.delete(this.watch);
      void this.watch.dispose();
    }
    this.watch = this.owned.add(wire.watch(this.current.taskId, (snapshot) => {
      this.apply(snapshot);
      if (snapshot.status === 'input_required' || TERMINAL_STATUSES.has(snapshot.status)) this.continueWith(connection, snapshot);
    }));
    const offers = connection.info.era === 'modern' && connection.info.capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
    if (!offers) return;
    const taskId = this.current.taskId;
    const timeout = this.deps.timeoutMs ?? 30_000;
    // Without the stream the task is still followed by polling: a listen that fails only costs latency.
    void connection
      .requestOn(`listening for task ${taskId}`, { timeoutMs: timeout }, (client) => listenForTask(client, wire, taskId, this.stop.signal, timeout))
      .catch(() => undefined);
  }

  private requestOptions(): CallOptions {
    return this.deps.timeoutMs !== undefined ? { timeoutMs: this.deps.timeoutMs } : {};
  }

  /** Until the next poll: the server's interval after the last one (never sooner), longer after failures. */
  private delay(): number {
    const interval = Math.max(this.current.pollIntervalMs ?? DEFAULT_POLL_MS, MIN_POLL_MS);
    const wait = this.failures === 0 ? interval : Math.min(interval * 2 ** this.failures, Math.max(MAX_RETRY_MS, interval));
    return Math.max(0, this.lastPollAt + wait - this.now());
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Ends the wait early; the next poll still keeps its distance from the last. */
  private wakeUp(): void {
    this.wake?.();
  }

  private outlivedTtl(): boolean {
    const ttl = this.current.ttlMs;
    if (ttl === undefined || ttl === null) return false;
    // Measured on this machine's clock from when Harbor saw the task start, with one interval's grace.
    return this.now() > this.current.startedAt + ttl + Math.max(this.current.pollIntervalMs ?? DEFAULT_POLL_MS, MIN_POLL_MS);
  }

  private update(patch: Partial<Omit<TaskRecord, 'server' | 'taskId'>>): void {
    const next = { ...this.current, ...withoutUndefined(patch) };
    const changed = JSON.stringify(next) !== JSON.stringify(this.current);
    this.current = next;
    if (changed) this.deps.changed(next);
  }

  private finish(status: Extract<TaskStatus, 'completed' | 'failed' | 'cancelled'>, patch: { result?: Record<string, unknown>; error?: TaskError } & Partial<TaskRecord>): void {
    if (this.isFinished) return;
    this.update({ ...patch, status, endedAt: this.now() });
    this.wakeUp();
  }

  /** Stops following (Harbor shuts down): the task goes on on the server and is followed again on the next start. */
  dispose(): void {
    if (this.stop.signal.aborted) return;
    markAsDisposed(this);
    this.stop.abort();
    this.wakeUp();
    void this.owned.dispose();
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
