import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { TaskView } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { HostEvents } from '../events';
import { JsonSchemaValidator } from '../json-schema';
import { describeProblems } from '../schema-problems';
import { DisposableStore, markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../lifecycle';
import type { CallOptions } from '../servers/connection';
import { runsAsLegacyTask, startToolCall } from '../servers/task-wire/requests';
import type { TaskSnapshot } from '../servers/task-wire/shapes';
import { TaskFollower, type TaskConnection } from './follower';
import { lookAtTasks } from './refresh';
import { toView, type TaskRecord } from './rows';
import type { TaskStore } from './store';

/** How a caller waits for a tool call that became a task. */
export interface TaskWaitOptions {
  /** Cancel the task (tasks/cancel) when it has not ended after this long (`harbor call --timeout`). */
  readonly deadlineMs?: number;
  /** Every change of the task while the caller waits (the CLI's status lines, the chat's tool card). */
  readonly onUpdate?: (task: TaskView) => void;
}

export interface TaskServiceDeps {
  /** A server's connection, connecting it if needed. */
  readonly connect: (server: string) => Promise<TaskConnection>;
  readonly store: TaskStore;
  readonly events: HostEvents;
  /** The server's per-request timeout (the registry's timeoutMs). */
  readonly timeoutFor: (server: string) => number | undefined;
  readonly now?: () => number;
}

/** How long a cancel may take before the caller is let go anyway. */
const CANCEL_WAIT_MS = 10_000;

const keyOf = (server: string, taskId: string) => JSON.stringify([server, taskId]);

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}

/**
 * The tasks Harbor follows. A tool call a server runs as a task is waited for transparently: the
 * caller gets the final result like any call's, sees the task's status on the way, and stopping
 * the caller (Stop, a timeout, Ctrl-C) cancels the task. Every task is kept (TaskStore): the
 * Tasks panel and `harbor tasks` list them, and one that has not ended when Harbor stops is
 * followed again when it starts (`resume`).
 */
export class TaskService implements Disposable {
  private readonly followers = new Map<string, TaskFollower>();
  private readonly watchers = new Map<string, Set<(record: TaskRecord) => void>>();
  private readonly finishedListeners = new Set<(record: TaskRecord) => void>();
  private readonly owned = new DisposableStore();
  private readonly validator = new JsonSchemaValidator();
  private readonly now: () => number;
  /** Cancels on their way to the server: the last ones are waited for before Harbor stops. */
  private readonly cancelling = new Set<Promise<unknown>>();
  private shuttingDown = false;
  private disposed = false;

  constructor(private readonly deps: TaskServiceDeps) {
    this.now = deps.now ?? Date.now;
    trackDisposable(this);
  }

  /**
   * Calls `definition` on a ready connection. A result comes back as is; a task is followed until
   * it ends and its result comes back the same way (a failed task throws, naming the server's error).
   */
  callTool(connection: TaskConnection, server: string, definition: Tool, args: Record<string, unknown> | undefined, options: CallOptions & { readonly task?: TaskWaitOptions }): Promise<CallToolResult> {
    // The options go on as they are (what reads them ignores `task`): no copy without it per call.
    const waitOptions = options.task;
    const era = connection.info.era ?? 'legacy';
    const asTask = era === 'legacy' && runsAsLegacyTask(connection.info.capabilities as Record<string, unknown> | undefined, definition);
    // Not async: a plain result (most calls) passes through one `then`, without a frame of its own.
    return connection
      .requestOn(`calling tool ${definition.name}`, options, (client, requestOptions) => startToolCall(client, connection.tasks, { name: definition.name, args, asTask }, requestOptions))
      .then((start) => (start.kind === 'result' ? start.result : this.followToItsEnd(server, definition, era, start.task, options.origin, options.signal, waitOptions)));
  }

  /** A call the server runs as a task: followed until it ends, its result checked as a plain result is. */
  private async followToItsEnd(
    server: string,
    definition: Tool,
    era: TaskRecord['era'],
    task: TaskSnapshot,
    origin: TaskRecord['origin'],
    signal: AbortSignal | undefined,
    waitOptions: TaskWaitOptions | undefined,
  ): Promise<CallToolResult> {
    const follower = this.follow(server, definition.name, era, task, origin);
    const result = await this.waitFor(follower, signal, waitOptions);
    this.checkStructured(server, definition, result);
    return result;
  }

  /** The tasks Harbor knows, newest first. */
  list(server?: string): TaskView[] {
    this.deps.store.endAbandoned(this.now());
    return this.deps.store.list(server).map((record) => toView(this.followers.get(keyOf(record.server, record.taskId))?.record ?? record));
  }

  /** A task and, once it completed, its result. */
  result(server: string, taskId: string): { task: TaskView; result?: Record<string, unknown> } {
    const record = this.record(server, taskId);
    return { task: toView(record), ...(record.result ? { result: { ...record.result } } : {}) };
  }

  /** Asks the server to stop a task; false when it has already ended. */
  async cancel(server: string, taskId: string): Promise<boolean> {
    const record = this.record(server, taskId);
    const follower = this.followers.get(keyOf(server, taskId)) ?? (record.endedAt === undefined ? this.startFollowing(record) : undefined);
    return follower ? follower.cancel() : false;
  }

  /**
   * Asks `server` how the tasks Harbor knows there and has not seen end are doing (one tasks/list
   * where a legacy server offers it, else tasks/get each) and keeps what it says. A task it no
   * longer knows has failed; one that ended gets its outcome when Harbor follows it again.
   */
  async refresh(server: string): Promise<TaskView[]> {
    this.deps.store.endAbandoned(this.now());
    // A task whose follower is gone was ended for that alone: asked about again, as if unfinished.
    const open = this.deps.store
      .unseen()
      .filter((record) => record.server === server && !this.followers.has(keyOf(server, record.taskId)))
      .map(({ endedAt: _ended, error: _error, ...record }): TaskRecord => (record.status === 'failed' ? { ...record, status: 'working' } : record));
    if (open.length > 0) {
      const sightings = await lookAtTasks(await this.deps.connect(server), open);
      for (const record of open) {
        const seen = sightings.get(record.taskId);
        if (!seen) continue;
        if ('unknown' in seen) {
          this.changed({ ...record, status: 'failed', endedAt: this.now(), error: { code: -32602, message: 'The server no longer knows this task: it may have restarted, or discarded the task.' } });
          continue;
        }
        const { snapshot } = seen;
        this.changed({
          ...record,
          status: snapshot.status,
          createdAt: snapshot.createdAt,
          lastUpdatedAt: snapshot.lastUpdatedAt,
          ...(snapshot.statusMessage !== undefined ? { statusMessage: snapshot.statusMessage } : {}),
          ...(snapshot.status === 'cancelled' ? { endedAt: this.now() } : {}),
        });
      }
    }
    return this.list(server);
  }

  /** Follows again every task that had not ended when Harbor last stopped (the app and browser mode, at start). */
  resume(): void {
    for (const record of this.deps.store.unfinished()) if (!this.followers.has(keyOf(record.server, record.taskId))) this.startFollowing(record);
  }

  /** Called with every task that ends without a caller waiting for it (its result goes to the conversation it belongs to). */
  onUnclaimedEnd(listener: (record: TaskRecord) => void): Disposable {
    this.finishedListeners.add(listener);
    return toDisposable(() => {
      this.finishedListeners.delete(listener);
    });
  }

  /** Records that a task's outcome reached whoever it was for (announced again: a conversation showing it reloads). */
  markDelivered(server: string, taskId: string): void {
    const record = this.deps.store.get(server, taskId);
    if (!record || record.delivered) return;
    const delivered = { ...record, delivered: true };
    this.deps.store.save(delivered);
    this.announce(delivered);
  }

  /**
   * Harbor is stopping: a caller stopped from now on (a chat turn ending with the app) leaves its
   * task running on the server, to be followed again at the next start, instead of cancelling it.
   */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  private record(server: string, taskId: string): TaskRecord {
    const record = this.followers.get(keyOf(server, taskId))?.record ?? this.deps.store.get(server, taskId);
    if (!record) throw new HarborError('BAD_REQUEST', `Harbor knows no task "${taskId}" of "${server}". List the tasks with "harbor tasks".`);
    return record;
  }

  private follow(server: string, tool: string, era: TaskRecord['era'], created: TaskSnapshot, origin: TaskRecord['origin']): TaskFollower {
    const record: TaskRecord = {
      server,
      taskId: created.taskId,
      tool,
      era,
      status: created.status,
      createdAt: created.createdAt,
      lastUpdatedAt: created.lastUpdatedAt,
      startedAt: this.now(),
      answeredKeys: [],
      cancelRequested: false,
      delivered: false,
      ...(origin ? { origin } : {}),
    };
    this.deps.store.save(record);
    return this.startFollowing(record, created);
  }

  private startFollowing(record: TaskRecord, initial?: TaskSnapshot): TaskFollower {
    const key = keyOf(record.server, record.taskId);
    const timeoutMs = this.deps.timeoutFor(record.server);
    const follower = new TaskFollower(
      record,
      {
        connect: () => this.deps.connect(record.server),
        changed: (next) => this.changed(next),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        now: this.now,
      },
      initial,
    );
    this.followers.set(key, follower);
    this.owned.add(follower);
    this.announce(follower.record);
    void follower.ended.then((ended) => {
      if (this.followers.get(key) !== follower) return;
      this.followers.delete(key);
      this.owned.delete(follower);
      follower.dispose();
      if (this.disposed) return;
      this.deps.store.prune();
      const stored = this.deps.store.get(ended.server, ended.taskId);
      if (stored && !stored.delivered) for (const listener of [...this.finishedListeners]) listener(stored);
    });
    return follower;
  }

  private changed(record: TaskRecord): void {
    if (this.disposed) return;
    this.deps.store.save(record);
    this.announce(record);
    for (const watcher of [...(this.watchers.get(keyOf(record.server, record.taskId)) ?? [])]) watcher(record);
  }

  private announce(record: TaskRecord): void {
    this.deps.events.emit('tasks.changed', { task: toView(record) });
  }

  /** Waits for a followed task's outcome; the caller stopping (or its deadline) cancels the task. */
  private waitFor(follower: TaskFollower, signal: AbortSignal | undefined, options: TaskWaitOptions = {}): Promise<CallToolResult> {
    const { server, taskId, tool } = follower.record;
    const key = keyOf(server, taskId);
    const what = `task ${taskId} of "${server}" (tool ${tool})`;
    return new Promise<CallToolResult>((resolve, reject) => {
      let settled = false;
      /** Why the caller gave up: from then on the task's own end no longer decides the outcome. */
      let gaveUp: HarborError | undefined;
      const cleanup: (() => void)[] = [];
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        for (const undo of cleanup) undo();
        outcome();
      };
      const giveUp = (error: HarborError) => {
        if (gaveUp || settled) return;
        gaveUp = error;
        if (this.shuttingDown) {
          settle(() => reject(new HarborError('CANCELLED', `Harbor is stopping; ${what} goes on on the server and is followed again when Harbor starts.`)));
          return;
        }
        const cancelling = follower.cancel().catch(() => false); // the caller gets `gaveUp`'s error; the task is followed again at the next start
        this.cancelling.add(cancelling);
        void cancelling.finally(() => this.cancelling.delete(cancelling));
        // The cancel is on the wire before the caller goes on (a CLI exits right after).
        void Promise.race([cancelling, delay(CANCEL_WAIT_MS)]).then(() =>
          settle(() => {
            this.markDelivered(server, taskId);
            reject(error);
          }),
        );
      };
      const onEnd = (record: TaskRecord) => {
        if (gaveUp || record.endedAt === undefined) return;
        settle(() => {
          this.markDelivered(server, taskId);
          if (record.result) return resolve(record.result as CallToolResult);
          if (record.status === 'cancelled') return reject(new HarborError('CANCELLED', `"${server}" cancelled ${what}${record.statusMessage ? `: ${record.statusMessage}` : ''}.`));
          const error = record.error;
          reject(new HarborError('PROTOCOL_ERROR', `"${server}" reports that ${what} failed: ${error?.message ?? record.statusMessage ?? 'no reason given'}${error ? ` (code ${error.code})` : ''}.`));
        });
      };
      const watchers = this.watchers.get(key) ?? new Set();
      this.watchers.set(key, watchers);
      const onChange = (record: TaskRecord) => {
        options.onUpdate?.(toView(record));
        onEnd(record);
      };
      watchers.add(onChange);
      cleanup.push(() => {
        watchers.delete(onChange);
        if (watchers.size === 0 && this.watchers.get(key) === watchers) this.watchers.delete(key);
      });
      options.onUpdate?.(toView(follower.record));
      onEnd(follower.record);
      void follower.ended.then((record) => {
        onEnd(record);
        if (!gaveUp) settle(() => reject(new HarborError('CANCELLED', `Harbor stopped following ${what}; it goes on on the server and is followed again when Harbor starts.`)));
      });
      if (signal) {
        const onAbort = () => giveUp(new HarborError('CANCELLED', `Cancelled ${what}: Harbor asked the server to stop it.`));
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        cleanup.push(() => signal.removeEventListener('abort', onAbort));
      }
      if (options.deadlineMs !== undefined) {
        const ms = options.deadlineMs;
        const timer = setTimeout(() => giveUp(new HarborError('TIMEOUT', `${what} did not finish within ${ms} ms; Harbor asked the server to cancel it.`)), ms);
        cleanup.push(() => clearTimeout(timer));
      }
    });
  }

  /** A completed task's structured result is checked against the tool's outputSchema, as the SDK checks a direct result. */
  private checkStructured(server: string, definition: Tool, result: CallToolResult): void {
    if (!definition.outputSchema || result.isError) return;
    if (result.structuredContent === undefined) {
      throw new HarborError('PROTOCOL_ERROR', `"${server}" returned no structured content from ${definition.name}, which declares an output schema.`);
    }
    const check = this.validator.validate(definition.outputSchema, result.structuredContent);
    if (!check.valid) throw new HarborError('PROTOCOL_ERROR', `"${server}" returned structured content from ${definition.name} that does not match its output schema: ${describeProblems(check.problems, 'the result')}.`);
  }

  /** Stops following (the tasks go on on their servers) and closes the store; cancels already asked for go out first. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.shuttingDown = true;
    await Promise.race([Promise.allSettled([...this.cancelling]), delay(CANCEL_WAIT_MS)]);
    this.disposed = true;
    markAsDisposed(this);
    await this.owned.dispose();
    this.followers.clear();
    this.deps.store.dispose();
  }
}
