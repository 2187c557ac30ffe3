import { Ban, ChevronRight, CircleCheck, CircleX, Hourglass, LoaderCircle, type LucideIcon } from 'lucide-react';
import { memo, useId, useState, type ReactNode } from 'react';
import { imageSource } from '../../lib/image-source';
import type { ChatToolCall } from '../../../../preload/contract';
import { ToolCallApp } from '../apps/ToolCallApp';
import { useToolApp } from '../apps/use-tool-app';
import { visibleText } from '../../lib/visible-text';
import type { CallProgress } from './conversation-model';
import { JsonTree } from './JsonTree';
import { ToolResultView } from './ToolResultView';
import { TaskStatusLine } from '../tasks/TaskStatusLine';
import { useWholeResult } from './whole-results';
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

const STATE_ICON: Record<CardState, LucideIcon> = {
  pending: LoaderCircle,
  consent: Hourglass,
  running: LoaderCircle,
  done: CircleCheck,
  failed: CircleX,
  cancelled: Ban,
  denied: Ban,
  toolError: CircleX,
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

/** The arguments in short, for the card's line: `key: value, …` (strings unquoted), cut at 80 characters. */
function compact(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.entries(value)
            .map(([key, v]) => `${key}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
            .join(', ')
        : (JSON.stringify(value) ?? '');
  } catch {
    text = String(value);
  }
  const line = text.replace(/\s+/g, ' ');
  return visibleText(line.length > 80 ? `${line.slice(0, 79)}…` : line);
}

/** How long a call took: "120 ms", "3.4 s", "2 min 5 s". */
export function duration(from: number, to: number | undefined): string {
  if (to === undefined) return '';
  const ms = Math.max(0, to - from);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A call's time on its line: the wait for the person's answer is not run time ("waited 40 s · ran 1 ms"). */
export function timing(call: ChatToolCall): string {
  if (call.endedAt === undefined) return '';
  if (!call.waitedMs) return duration(call.startedAt, call.endedAt);
  const ran = Math.max(0, call.endedAt - call.startedAt - call.waitedMs);
  return `waited ${duration(0, call.waitedMs)} · ran ${duration(0, ran)}`;
}

interface Props {
  readonly call: ChatToolCall;
  /** The call's turn: where a result that came as a preview is fetched whole from. */
  readonly turnId?: string | undefined;
  readonly progress?: CallProgress | undefined;
  /** A resource link in the result can be attached to the next message (by the person). */
  readonly onAttach?: ((server: string, uri: string, title: string) => void) | undefined;
  /** Extra status in the card's line (e.g. a long-running task's state). */
  readonly status?: ReactNode;
  /** Shown under the card's line whether it is open or not (e.g. the tool's app). */
  readonly children?: ReactNode;
}

/**
 * One tool call of the model as one line — state, server › tool, its arguments in short, how long
 * it took — that opens to the exact arguments, the result (tables, trees, images) and how consent
 * went. A running call shows its progress on the line; a failed one says why without opening.
 */
export const ToolCallCard = memo(function ToolCallCard({ call, turnId, progress, onAttach, status, children }: Props) {
  const state = cardState(call);
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  const server = visibleText(call.server ?? 'Harbor');
  const tool = visibleText(call.tool ?? call.name);
  // A tool with an app shows its result in the app, on the closed card; the raw result is in the card's body.
  const running = state === 'running' || state === 'pending';
  // A call running now shows the app its tool had last time at once (#32 goal 5), while the Host is asked again.
  const app = useToolApp(call.server, call.tool, running || state === 'consent');
  const Icon = STATE_ICON[state];
  const percent = progress?.total ? Math.round((progress.progress / progress.total) * 100) : undefined;
  const showResult = call.result && state !== 'failed' && state !== 'denied' && state !== 'cancelled';
  // A large result came as a preview: fetched whole when the card opens, or for its images on the closed card.
  const whole = useWholeResult(call, turnId, open || (call.result?.omitted?.images ?? 0) > 0);
  return (
    <article className={`tool-card tool-card--${state}${open ? ' tool-card--open' : ''}`} aria-label={`Tool call ${server} › ${tool}`}>
      <h3 className="tool-card__title">
        <button type="button" className="tool-card__line" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((v) => !v)}>
          <Icon className={`tool-card__icon${running ? ' tool-card__icon--spin' : ''}`} aria-hidden="true" size={15} />
          <span className="tool-card__name">
            <span className="tool-card__server">{server}</span>
            <span aria-hidden="true"> › </span>
            <span className="visually-hidden"> tool </span>
            <strong>{tool}</strong>
          </span>
          <code className="tool-card__args-preview">{compact(call.arguments)}</code>
          <span className="tool-card__state">{STATE_LABEL[state]}</span>
          {call.endedAt !== undefined ? <span className="tool-card__time">{timing(call)}</span> : null}
          <ChevronRight className="tool-card__chevron" aria-hidden="true" size={15} />
        </button>
      </h3>
      {call.task ? <TaskStatusLine task={call.task} /> : null}
      {status}

      {running ? (
        <div className="tool-card__progress">
          {progress ? (
            <progress aria-label={`Progress of ${tool}`} value={progress.progress} {...(progress.total ? { max: progress.total } : {})} />
          ) : (
            <progress aria-label={`Progress of ${tool}`} />
          )}
          <span className="tool-card__progress-text" role="status">
            {progress?.message ? visibleText(progress.message) : percent !== undefined ? `${percent}%` : call.task ? 'Running as a task on the server…' : 'Working…'}
          </span>
        </div>
      ) : null}
      {state === 'consent' ? <p className="tool-card__hint">Harbor is asking you whether this may run.</p> : null}
      {call.error && state === 'failed' ? <p className="tool-card__error">{visibleText(call.error.message, { multiline: true })}</p> : null}

      {!open && showResult && whole?.status === 'ready' ? <ResultImages content={whole.value.content} tool={tool} /> : null}
      {children}

      {app ? <ToolCallApp call={call} turnId={turnId} onUnavailable={() => setOpen(true)} /> : null}
      <div id={bodyId} className="tool-card__body" hidden={!open}>
        {open ? (
          <>
            <div className="tool-card__section" role="group" aria-label="Arguments">
              <p className="structured__label">Arguments</p>
              <JsonTree value={call.arguments} label="Arguments" />
            </div>
            {call.error && state !== 'failed' ? (
              <p className="tool-card__error">
                {visibleText(call.error.message, { multiline: true })} <span className="notice__code">{call.error.code}</span>
              </p>
            ) : null}
            {call.error && state === 'failed' ? <p className="notice__code">{call.error.code}</p> : null}
            {showResult && whole ? (
              <div className="tool-card__section" role="group" aria-label="Result">
                {whole.status === 'ready' ? (
                  <ToolResultView result={whole.value} {...(onAttach && call.server ? { onAttach: (uri: string, title: string) => onAttach(call.server!, uri, title) } : {})} />
                ) : whole.status === 'loading' ? (
                  <p className="tool-card__hint" role="status">
                    Loading the result ({Math.ceil((call.result?.omitted?.chars ?? 0) / 1000).toLocaleString()} kB)…
                  </p>
                ) : (
                  <p className="tool-card__error">{visibleText(whole.error.message, { multiline: true })}</p>
                )}
              </div>
            ) : null}
            {call.approval && APPROVAL[call.approval] ? <p className="tool-card__approval">{APPROVAL[call.approval]}</p> : null}
          </>
        ) : null}
      </div>
    </article>
  );
});

/** Images a tool returned, shown small on the closed card (they are what the person wants to see). */
function ResultImages({ content, tool }: { readonly content: readonly unknown[]; readonly tool: string }) {
  const sources = content
    .map((block) => block as { type?: unknown; mimeType?: unknown; data?: unknown } | null)
    .filter((block) => block?.type === 'image')
    .map((block) => imageSource(block?.mimeType, block?.data))
    .filter((src): src is string => src !== undefined)
    .slice(0, 4);
  if (sources.length === 0) return null;
  return (
    <div className="tool-card__images">
      {sources.map((src, index) => (
        <img key={index} className="tool-card__image" src={src} alt={`Image ${index + 1} from ${tool}`} />
      ))}
    </div>
  );
}
