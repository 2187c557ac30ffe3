import { useId, useState, type FormEvent } from 'react';
import type { SamplingAnswer, SamplingRequestData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { QueueStatus } from '../consent/QueueStatus';
import { Modal } from '../consent/Modal';
import './sampling.css';

export type SamplingDecision = Omit<SamplingAnswer, 'id'>;

interface Props {
  readonly request: SamplingRequestData;
  readonly waiting: number;
  readonly onAnswer: (decision: SamplingDecision) => void;
  /** Why Harbor did not take the last answer (an edit that does not fit). */
  readonly refusal?: string;
}

/**
 * A server wants the model to answer something (sampling), and the person decides, in two steps
 * (after VS Code): first the request — who asks, the system prompt, every message, the token
 * limit — which they may edit before the model runs, or deny; then the model's answer, which they
 * may edit before it goes back to the server, or keep from it. Escape and closing deny.
 */
export function SamplingDialog({ request, waiting, onAnswer, refusal }: Props) {
  const titleId = useId();
  const leadId = useId();
  const formId = useId();
  const server = visibleText(request.server);
  const response = request.stage === 'response';
  const deny = () => onAnswer({ action: 'deny' });
  return (
    <Modal labelledBy={titleId} describedBy={leadId} onCancel={deny} className="sampling">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          {response ? `Send the model's answer to “${server}”?` : `“${server}” wants to ask the model`}
        </h2>
        <button type="button" className="modal__close" aria-label="Close (deny)" onClick={deny}>
          ×
        </button>
      </header>
      <div className="modal__body">
        <p id={leadId} className="consent__lead">
          {response ? (
            <>
              The model <strong>{request.response?.model ?? request.model}</strong> answered the request of <strong>{server}</strong>. Nothing has been sent
              back yet: read the answer, change it if you like, then send it or keep it from the server.
            </>
          ) : (
            <>
              The server <strong>{server}</strong>
              {request.during ? <> (while {visibleText(request.during)})</> : null} asks Harbor to run the model <strong>{request.model}</strong> on the
              messages below. Nothing is sent to the model until you approve; you can edit the request first.
            </>
          )}
        </p>
        {response ? (
          <ResponseForm key={request.id} request={request} formId={formId} onAnswer={onAnswer} />
        ) : (
          <RequestForm key={request.id} request={request} formId={formId} onAnswer={onAnswer} />
        )}
        {refusal ? (
          <div className="notice notice--error" role="alert">
            <p className="notice__message">Not taken. {visibleText(refusal, { multiline: true })}</p>
          </div>
        ) : null}
        <QueueStatus deadline={request.deadline} outcome="Denied" onExpire={deny} waiting={waiting} noun="request" />
      </div>
      <footer className="modal__actions">
        <button type="button" className="button" onClick={deny}>
          {response ? "Don't send" : 'Deny'}
        </button>
        <button type="submit" form={formId} className="button button--primary">
          {response ? 'Send answer' : 'Approve and run'}
        </button>
      </footer>
    </Modal>
  );
}

/** Invisible characters in a text the person is about to approve deserve a word. */
function HiddenCharacters({ text }: { readonly text: string }) {
  return visibleText(text, { multiline: true }) === text ? null : (
    <p className="field__hint sampling__hidden">Contains invisible characters: {visibleText(text, { multiline: true })}</p>
  );
}

function RequestForm({ request, formId, onAnswer }: { readonly request: SamplingRequestData; readonly formId: string; readonly onAnswer: Props['onAnswer'] }) {
  const id = useId();
  const [systemPrompt, setSystemPrompt] = useState(request.systemPrompt ?? '');
  const [texts, setTexts] = useState(() => request.messages.map((m) => m.text));
  const [maxTokens, setMaxTokens] = useState(String(request.maxTokens));
  const tokens = Number(maxTokens);
  const tokensProblem = !Number.isInteger(tokens) || tokens < 1 || tokens > request.maxTokens ? `A whole number from 1 to ${request.maxTokens} (the server's limit).` : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tokensProblem) return;
    const changed = texts.map((text, i) => (text === request.messages[i]!.text ? null : text));
    onAnswer({
      action: 'approve',
      ...(systemPrompt !== (request.systemPrompt ?? '') ? { systemPrompt } : {}),
      ...(changed.some((t) => t !== null) ? { messages: changed } : {}),
      ...(tokens !== request.maxTokens ? { maxTokens: tokens } : {}),
    });
  };
  return (
    <form id={formId} className="sampling__form" noValidate onSubmit={submit} aria-label="The request to the model">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-system`}>
          System prompt
        </label>
        <textarea id={`${id}-system`} className="input input--code sampling__text" rows={2} value={systemPrompt} placeholder="(none)" onChange={(e) => setSystemPrompt(e.target.value)} />
        <HiddenCharacters text={systemPrompt} />
      </div>
      <ol className="sampling__messages" aria-label="Messages">
        {request.messages.map((message, i) => (
          <li key={i} className="field">
            <label className="field__label" htmlFor={`${id}-m${i}`}>
              Message {i + 1} ({message.role === 'user' ? 'user' : 'assistant'})
            </label>
            <textarea
              id={`${id}-m${i}`}
              className="input input--code sampling__text"
              rows={3}
              value={texts[i]}
              onChange={(e) => setTexts((all) => all.map((t, j) => (j === i ? e.target.value : t)))}
            />
            <HiddenCharacters text={texts[i] ?? ''} />
            {message.attachments.length > 0 ? <p className="field__hint">Also sends: {message.attachments.map((a) => visibleText(a)).join(', ')}</p> : null}
          </li>
        ))}
      </ol>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-tokens`}>
          Longest answer, in tokens
        </label>
        <input
          id={`${id}-tokens`}
          className="input input--number"
          inputMode="numeric"
          value={maxTokens}
          aria-invalid={tokensProblem ? true : undefined}
          aria-describedby={`${id}-tokens-hint`}
          onChange={(e) => setMaxTokens(e.target.value)}
        />
        <p className="field__hint" id={`${id}-tokens-hint`}>
          {tokensProblem ?? `The server asked for at most ${request.maxTokens}; you may lower it.`}
        </p>
      </div>
      <dl className="facts sampling__facts">
        {request.temperature !== undefined ? (
          <>
            <dt>Temperature</dt>
            <dd>{request.temperature}</dd>
          </>
        ) : null}
        {request.modelHints.length > 0 ? (
          <>
            <dt>Models the server prefers</dt>
            <dd>{request.modelHints.map((h) => visibleText(h)).join(', ')}</dd>
          </>
        ) : null}
        {request.includeContext && request.includeContext !== 'none' ? (
          <>
            <dt>Context</dt>
            <dd>The server asked for context from {request.includeContext === 'allServers' ? 'all servers' : 'itself'}; Harbor adds none.</dd>
          </>
        ) : null}
      </dl>
    </form>
  );
}

function ResponseForm({ request, formId, onAnswer }: { readonly request: SamplingRequestData; readonly formId: string; readonly onAnswer: Props['onAnswer'] }) {
  const id = useId();
  const original = request.response?.text ?? '';
  const [text, setText] = useState(original);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAnswer({ action: 'approve', ...(text !== original ? { text } : {}) });
  };
  return (
    <form id={formId} className="sampling__form" noValidate onSubmit={submit} aria-label="The model's answer">
      <details className="sampling__asked">
        <summary>What the server asked</summary>
        {request.systemPrompt ? <p className="plain-text">System: {visibleText(request.systemPrompt, { multiline: true })}</p> : null}
        {request.messages.map((m, i) => (
          <p key={i} className="plain-text">
            {m.role}: {visibleText(m.text, { multiline: true })}
          </p>
        ))}
      </details>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-answer`}>
          The model&apos;s answer
        </label>
        <textarea id={`${id}-answer`} className="input input--code sampling__text" rows={6} value={text} onChange={(e) => setText(e.target.value)} />
        <HiddenCharacters text={text} />
        <p className="field__hint">
          {request.response?.stopReason === 'maxTokens' ? 'The model stopped at the token limit. ' : ''}
          {text !== original ? 'You changed the answer: the server gets your version.' : 'The server gets this text as the model’s answer.'}
        </p>
      </div>
    </form>
  );
}
