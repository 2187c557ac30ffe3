import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useHarbor } from '../../app/services';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { TaskList, taskKey } from './task-list';
import { TaskRow } from './TaskRow';
import './tasks.css';

/** The clock the elapsed times read, ticking once a second while a task runs. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** Every task a server ran for a tool call, kept across restarts: status, message, elapsed, Cancel, the result. */
export function TasksPage() {
  const api = useHarbor();
  const list = useMemo(() => new TaskList(api), [api]);
  useEffect(() => list.start(), [list]);
  const state = useSyncExternalStore(list.subscribe, list.snapshot);
  const running = state.status === 'ready' && state.value.some((task) => task.endedAt === undefined);
  const now = useNow(running);
  return (
    <>
      <PageHeader title="Tasks">
        Tool calls a server runs as tasks. Harbor follows each one until it ends, even across restarts.
      </PageHeader>
      {state.status === 'loading' ? <Loading label="Loading tasks…" /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} /> : null}
      {state.status === 'ready' && state.value.length === 0 ? (
        <EmptyState title="No tasks yet">
          <p>When a server answers a tool call with a task, it shows up here with its status.</p>
        </EmptyState>
      ) : null}
      {state.status === 'ready' && state.value.length > 0 ? (
        <ul className="cards task-list" aria-label="Tasks">
          {state.value.map((task) => (
            <TaskRow key={taskKey(task)} task={task} now={now} />
          ))}
        </ul>
      ) : null}
    </>
  );
}
