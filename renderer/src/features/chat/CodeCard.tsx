import { memo } from 'react';
import type { ChatToolCall, CodeCall } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { CodeView } from './CodeView';
import { StructuredView } from './StructuredView';
import { APPROVAL } from './ToolCallCard';
import './code-card.css';

type RunState = 'running' | 'done' | 'failed' | 'stopped';
type CallState = 'running' | 'consent' | 'done' | 'denied' | 'cancelled' | 'toolError' | 'failed';

const RUN_LABEL: Record<RunState, string> = { running: 'Running', done: 'Done', failed: 'Failed', stopped: 'Stopped' };
const RUN_BADGE: Record<RunState, string> = { running: 'starting', done: 'ready', failed: 'error', stopped: 'stopped' };
const CALL_LABEL: Record<CallState, string> = {
  running: 'Running',
  consent: 'Awaiting your consent',
  done: 'Done',
  denied: 'Denied',
  cancelled: 'Cancelled',
  toolError: 'The tool reported an error',
  failed: 'Failed',
};

function runState(call: ChatToolCall): RunState {
  if (call.status !== 'done' && call.status !== 'error') return 'running';
  const code = call.code?.error?.code ?? call.error?.code;
  if (code === 'CANCELLED') return 'stopped';
  return call.status === 'error' || call.code?.status === 'error' || call.result?.isError ? 'failed' : 'done';
}

function callState(call: CodeCall): CallState {
  switch (call.status) {
    case 'running':
      return 'running';
    case 'awaiting-consent':
      return 'consent';
    case 'done':
      return 'done';
    case 'error':
      if (call.error?.code === 'CONSENT_DENIED') return 'denied';
      if (call.error?.code === 'CANCELLED') return 'cancelled';
      return call.error?.code === 'TOOL_ERROR' ? 'toolError' : 'failed';
  }
}

function compact(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  return visibleText(text.length > 120 ? `${text.slice(0, 119)}…` : text);
}

const took = (from: number, to: number | undefined) => (to === undefined ? '' : `${Math.max(0, to - from)} ms`);

interface Props {
  readonly call: ChatToolCall;
  /** Stop the turn: ends the script and cancels its call in flight. */
  readonly onStop?: (() => void) | undefined;
}

/**
 * A run_code call: the script the model wrote (highlighted), every tool call it made with its
 * consent, status and timing — live while it runs — what it printed, and its result or why it
 * failed. Each call was approved (or not) on its own, like a direct call.
 */
export const CodeCard = memo(function CodeCard({ call, onStop }: Props) {
  const state = runState(call);
  const run = call.code;
  const script = run?.script ?? String((call.arguments as { code?: unknown } | null)?.code ?? '');
  const calls = run?.calls ?? [];
  const logs = run?.logs ?? [];
  const error = run?.error ?? call.error;
  return (
    <article className={`tool-card code-card code-card--${state}`} aria-label="Script run_code">
      <header className="tool-card__header">
        <h3 className="tool-card__title">
          <span className="tool-card__server">Harbor</span>
          <span aria-hidden="true"> › </span>
          <strong>run_code</strong>
          <span className="code-card__subtitle"> a script of {calls.length} tool call{calls.length === 1 ? '' : 's'}</span>
        </h3>
        <span className={`badge badge--${RUN_BADGE[state]}`}>{RUN_LABEL[state]}</span>
      </header>

      <details className="code-card__script" open>
        <summary>Script ({script.split('\n').length} lines)</summary>
        <CodeView code={script} label="Script" />
      </details>

      {calls.length > 0 ? (
        <ol className="code-card__calls" aria-label="Tool calls of the script">
          {calls.map((c) => {
            const s = callState(c);
            return (
              <li key={c.id} className={`code-call code-call--${s}`} aria-label={`${c.server} › ${c.tool}: ${CALL_LABEL[s]}`}>
                <span className="code-call__name">
                  <span className="tool-card__server">{visibleText(c.server)}</span> › <strong>{visibleText(c.tool)}</strong>
                </span>
                <code className="code-call__args">{compact(c.arguments)}</code>
                <span className="code-call__status">{CALL_LABEL[s]}</span>
                <span className="code-call__time">{took(c.startedAt, c.endedAt)}</span>
                {c.approval && APPROVAL[c.approval] ? <span className="code-call__approval">{APPROVAL[c.approval]}</span> : null}
                {c.error && s !== 'cancelled' ? <span className="code-call__error">{visibleText(c.error.message, { multiline: true })}</span> : null}
              </li>
            );
          })}
        </ol>
      ) : null}

      {state === 'running' ? (
        <div className="code-card__running">
          {calls.some((c) => c.status === 'awaiting-consent') ? <p className="tool-card__hint">Harbor is asking you whether a call of this script may run.</p> : null}
          {onStop ? (
            <button type="button" className="button button--small button--danger" onClick={onStop}>
              Stop script
            </button>
          ) : null}
        </div>
      ) : null}

      {logs.length > 0 ? (
        <section className="code-card__section" aria-label="Output of the script">
          <p className="structured__label">Output</p>
          <pre className="code-card__logs">
            {logs.map((l, i) => (
              <span key={i} className={`code-card__log code-card__log--${l.level}`}>
                {visibleText(l.text, { multiline: true })}
                {'\n'}
              </span>
            ))}
          </pre>
        </section>
      ) : null}

      {state === 'done' && run && run.result !== undefined && run.result !== null ? (
        <section className="code-card__section" aria-label="Result of the script">
          {typeof run.result === 'string' ? (
            <>
              <p className="structured__label">Result</p>
              <pre className="result__text">{visibleText(run.result, { multiline: true })}</pre>
            </>
          ) : (
            <StructuredView value={run.result} />
          )}
        </section>
      ) : null}

      {error && state !== 'done' ? (
        <p className="tool-card__error">
          {visibleText(error.message, { multiline: true })} <span className="notice__code">{error.code}</span>
        </p>
      ) : null}
    </article>
  );
});
