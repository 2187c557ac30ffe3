import { useState } from 'react';
import type { HarborErrorData, TaskView } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { ToolResultBody } from '../catalog/ContentView';
import { STATUS_BADGE, STATUS_LABEL, elapsedText } from './task-list';
import { formatDateTime } from '../../lib/time-format';

type Shown = { readonly kind: 'loading' } | { readonly kind: 'error'; readonly error: HarborErrorData } | { readonly kind: 'result'; readonly result: Record<string, unknown> };

/** One task: which server and tool, its status and the server's message, how long it ran, Cancel, its result. */
export function TaskRow({ task, now }: { readonly task: TaskView; readonly now: number }) {
  const api = useHarbor();
  const [shown, setShown] = useState<Shown | undefined>();
  const [cancelError, setCancelError] = useState<HarborErrorData | undefined>();
  const [cancelling, setCancelling] = useState(false);
  const ended = task.endedAt !== undefined;
  const label = `${task.server} › ${task.tool}`;

  const cancel = async () => {
    setCancelling(true);
    setCancelError(undefined);
    const result = await api.tasks.cancel({ server: task.server, taskId: task.taskId });
    setCancelling(false);
    if (!result.ok) setCancelError(asErrorData(result.error));
  };

  const toggleResult = async () => {
    if (shown) return setShown(undefined);
    setShown({ kind: 'loading' });
    const answer = await api.tasks.result({ server: task.server, taskId: task.taskId });
    if (!answer.ok) setShown({ kind: 'error', error: asErrorData(answer.error) });
    else if (answer.value.result) setShown({ kind: 'result', result: answer.value.result });
    else setShown({ kind: 'error', error: { code: 'BAD_REQUEST', message: 'This task has no result.' } });
  };

  return (
    <li className="card task-row" aria-label={`Task ${label}`}>
      <header className="card__header">
        <h2 className="card__title task-row__title">
          <span className="task-row__server">{task.server}</span>
          <span aria-hidden="true"> › </span>
          <strong>{task.tool}</strong>
        </h2>
        <span className={`badge badge--${STATUS_BADGE[task.status]}`}>
          {STATUS_LABEL[task.status]}
          {task.cancelRequested && !ended ? ' (cancelling)' : ''}
        </span>
      </header>
      {task.statusMessage ? <p className="task-row__message">{visibleText(task.statusMessage)}</p> : null}
      <dl className="facts task-row__facts">
        <dt>Elapsed</dt>
        <dd>{elapsedText(task, now)}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(task.startedAt)}</dd>
        <dt>Task id</dt>
        <dd>
          <code>{visibleText(task.taskId)}</code>
        </dd>
      </dl>
      {task.error ? (
        <p className="notice notice--error task-row__error">
          {visibleText(task.error.message)} <span className="notice__code">code {task.error.code}</span>
        </p>
      ) : null}
      <div className="task-row__actions">
        {!ended ? (
          <button type="button" className="button button--small" disabled={cancelling || task.cancelRequested} onClick={() => void cancel()}>
            {task.cancelRequested ? 'Cancel asked' : cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : null}
        {task.hasResult ? (
          <button type="button" className="button button--small" aria-expanded={shown !== undefined} onClick={() => void toggleResult()}>
            {shown ? 'Hide result' : 'Open result'}
          </button>
        ) : null}
      </div>
      {cancelError ? <ErrorMessage error={cancelError} /> : null}
      {shown?.kind === 'loading' ? <p className="muted">Loading the result…</p> : null}
      {shown?.kind === 'error' ? <ErrorMessage error={shown.error} /> : null}
      {shown?.kind === 'result' ? <TaskResult result={shown.result} /> : null}
    </li>
  );
}

function TaskResult({ result }: { readonly result: Record<string, unknown> }) {
  return (
    <section className="task-row__result" aria-label="Result">
      <h3 className="task-row__result-title">{result.isError === true ? 'The tool reported an error' : 'Result'}</h3>
      <ToolResultBody result={result} />
    </section>
  );
}
