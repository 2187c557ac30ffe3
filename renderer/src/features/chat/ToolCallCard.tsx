import { memo, useState } from 'react';
import type { ChatToolCall } from '../../../../preload/contract';
import type { CallProgress } from './conversation-model';
import { ToolResultView } from './ToolResultView';
import { TaskStatusLine } from '../tasks/TaskStatusLine';
import '../tasks/tasks.css';
import './tool-cards.css';

type CardState = 'pending' | 'consent' | 'running' | 'done' | 'failed' | 'cancelled' | 'denied' | 'toolError';

export function cardState(call: ChatToolCall): CardState {
  switch (call.status) {
    case 'pending':
      return 'pending';
    case 'awaiting-consent':
      return 'consent';
    case 'running':
    case 'progress':
      return 'running';
    case 'done':
      return call.result?.isError ? 'toolError' : 'done';
    case 'error':
      if (call.error?.code === 'CANCELLED') return 'cancelled';
      if (call.approval === 'denied' || call.error?.code === 'CONSENT_DENIED') return 'denied';
      return 'failed';
  }
}

const STATE_LABEL: Record<CardState, string> = {
  pending: 'Starting',
  consent: 'Awaiting your consent',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  denied: 'Denied',
  toolError: 'The tool reported an error',
};

const BADGE: Record<CardState, string> = {
  pending: 'starting',
  consent: 'starting',
  running: 'starting',
  done: 'ready',
  failed: 'error',
  cancelled: 'stopped',
  denied: 'error',
  toolError: 'error',
};

export const APPROVAL: Record<string, string> = {
  approved: 'Allowed by your settings.',
  'approved-once': 'You allowed it once.',
  'approved-conversation': 'Allowed for this conversation.',
  'approved-always': 'You always allow this tool.',
  'not-needed': 'No consent needed.',
  denied: 'You denied it.',
  required: 'It needed consent that could not be asked.',
};

function compact(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? '';
    return text.length > 90 ? `${text.slice(0, 89)}…` : text;
  } catch {
    return String(value);
  }
}

interface Props {
  readonly call: ChatToolCall;
  readonly progress?: CallProgress | undefined;
  /** A resource link in the result can be attached to the next message (by the person). */
  readonly onAttach?: ((server: string, uri: string, title: string) => void) | undefined;
}

/**
 * One tool call of the model: which server and tool, the exact arguments, its state (awaiting
 * consent, running with progress, done, failed, cancelled, denied), and its result, collapsible.
 */
export const ToolCallCard = memo(function ToolCallCard({ call, progress, onAttach }: Props) {
  const state = cardState(call);
  const [showResult, setShowResult] = useState(true);
  const server = call.server ?? 'Harbor';
  const tool = call.tool ?? call.name;
  const label = `Tool call ${server} › ${tool}`;
  const running = state === 'running' || state === 'pending';
  const percent = progress?.total ? Math.round((progress.progress / progress.total) * 100) : undefined;
  return (
    <article className={`tool-card tool-card--${state}`} aria-label={label}>
      <header className="tool-card__header">
        <h3 className="tool-card__title">
          <span className="tool-card__server">{server}</span>
          <span aria-hidden="true"> › </span>
          <span className="visually-hidden"> tool </span>
          <strong>{tool}</strong>
        </h3>
        <span className={`badge badge--${BADGE[state]}`}>{STATE_LABEL[state]}</span>
      </header>

      <details className="tool-card__args">
        <summary>
          Arguments <code className="tool-card__args-summary">{compact(call.arguments)}</code>
        </summary>
        <pre aria-label="Arguments">{JSON.stringify(call.arguments, null, 2)}</pre>
      </details>

      {state === 'consent' ? <p className="tool-card__hint">Harbor is asking you whether this may run.</p> : null}

      {running ? (
        <div className="tool-card__progress">
          {progress ? (
            <progress
              aria-label={`Progress of ${tool}`}
              value={progress.progress}
              {...(progress.total ? { max: progress.total } : {})}
            />
          ) : (
            <progress aria-label={`Progress of ${tool}`} />
          )}
          <span className="tool-card__progress-text" role="status">
            {progress?.message ?? (percent !== undefined ? `${percent}%` : call.task ? 'Running as a task on the server…' : 'Working…')}
          </span>
        </div>
      ) : null}

      {call.task ? <TaskStatusLine task={call.task} /> : null}

      {call.error && state !== 'denied' ? (
        <p className="tool-card__error">
          {call.error.message} <span className="notice__code">{call.error.code}</span>
        </p>
      ) : null}

      {call.result && state !== 'failed' && state !== 'denied' && state !== 'cancelled' ? (
        <div className="tool-card__result">
          <button type="button" className="button button--small button--quiet" aria-expanded={showResult} onClick={() => setShowResult((v) => !v)}>
            {showResult ? 'Hide result' : 'Show result'}
          </button>
          {showResult ? (
            <ToolResultView result={call.result} {...(onAttach && call.server ? { onAttach: (uri: string, title: string) => onAttach(call.server!, uri, title) } : {})} />
          ) : null}
        </div>
      ) : null}

      {call.approval && APPROVAL[call.approval] ? <p className="tool-card__approval">{APPROVAL[call.approval]}</p> : null}
    </article>
  );
});
