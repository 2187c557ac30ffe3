import type { HarborApi, TaskView } from '../../../../preload/contract';
import { asErrorData, type LoadState } from '../../lib/load-state';

export const taskKey = (task: Pick<TaskView, 'server' | 'taskId'>): string => JSON.stringify([task.server, task.taskId]);

/** Newest first, as the Host lists them. */
function ordered(tasks: Iterable<TaskView>): TaskView[] {
  return [...tasks].sort((a, b) => b.startedAt - a.startedAt);
}

/**
 * The tasks Harbor follows, kept current: the list the Host keeps (tasks.list), then every
 * `tasks.changed` event merged in by server and task id — one that arrived before the list did is
 * not lost, and an older list never undoes a newer event.
 */
export class TaskList {
  private state: LoadState<TaskView[]> = { status: 'loading' };
  private readonly live = new Map<string, TaskView>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly api: HarborApi) {}

  start(): () => void {
    const unsubscribe = this.api.on.tasks.changed(({ task }) => {
      this.live.set(taskKey(task), task);
      if (this.state.status === 'ready') this.set({ status: 'ready', value: this.merge(this.state.value) });
    });
    void this.api.tasks.list({}).then(
      (result) => this.set(result.ok ? { status: 'ready', value: this.merge(result.value) } : { status: 'error', error: asErrorData(result.error) }),
      (error: unknown) => this.set({ status: 'error', error: asErrorData(error instanceof Error ? error.message : error) }),
    );
    return unsubscribe;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): LoadState<TaskView[]> => this.state;

  private merge(listed: readonly TaskView[]): TaskView[] {
    const byKey = new Map(listed.map((task) => [taskKey(task), task]));
    for (const [key, task] of this.live) byKey.set(key, task);
    return ordered(byKey.values());
  }

  private set(state: LoadState<TaskView[]>): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
}

/** "12 s", "3 min", "2 h 5 min": how long a task has run (or ran). */
export function elapsedText(task: Pick<TaskView, 'startedAt' | 'endedAt'>, now: number): string {
  const seconds = Math.max(0, Math.round(((task.endedAt ?? now) - task.startedAt) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const STATUS_LABEL: Record<TaskView['status'], string> = {
  working: 'Working',
  input_required: 'Needs your answer',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const STATUS_BADGE: Record<TaskView['status'], string> = {
  working: 'starting',
  input_required: 'starting',
  completed: 'ready',
  failed: 'error',
  cancelled: 'stopped',
};
