import { useEffect, useId, useMemo, useRef, type FormEvent, type RefObject } from 'react';
import { visibleText } from '../../lib/visible-text';
import { SchemaFields, sensitiveFields, useSchemaForm } from '../../ui/schema-form';
import { QueueStatus } from '../consent/QueueStatus';
import { Modal } from '../consent/Modal';
import { openExternally, reviewUrl } from './url-safety';
import { UrlView } from './UrlView';
import './elicitation.css';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

/** A server's question (during a tool run by hand, a chat turn's tool call, or a request Harbor cannot tell). */
export interface PendingElicitation {
  readonly id: string;
  readonly server: string;
  readonly mode: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: unknown;
  readonly url?: string;
  readonly deadline: number;
  /** "“ask_name” in the chat": what was running when the server asked. */
  readonly during?: string;
}

interface Props {
  readonly request: PendingElicitation;
  readonly waiting: number;
  readonly onAnswer: (action: ElicitationAction, content?: Record<string, unknown>) => void;
  /** Why Harbor did not send the last answer (it does not fit what the server asked for). */
  readonly refusal?: string;
  /** Opens a URL outside the app (default: window.open with noopener). */
  readonly open?: (url: string, target: string, features: string) => unknown;
}

/**
 * A server asks the person something. Says which server and why (its message, as text), then
 * either a form from the restricted schema with inline validation, or — in URL mode — the full
 * address with its real site highlighted, opened only in the system browser and only when the
 * person clicks. Accept / decline / cancel; Escape and closing cancel.
 */
export function ElicitationDialog({ request, waiting, onAnswer, open, refusal }: Props) {
  const titleId = useId();
  const leadId = useId();
  const formId = useId();
  const body = useRef<HTMLDivElement>(null);
  const declineRef = useRef<HTMLButtonElement>(null);
  const url = request.mode === 'url';
  const server = visibleText(request.server);
  const title = url ? `“${server}” asks you to open a web page` : `“${server}” asks for your input`;

  // A form gets the focus in its first field (after the dialog's own initial focus).
  useEffect(() => {
    if (!url) body.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [url]);

  return (
    <Modal labelledBy={titleId} describedBy={leadId} onCancel={() => onAnswer('cancel')} className="elicitation" {...(url ? { initialFocus: declineRef } : {})}>
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        <button type="button" className="modal__close" aria-label="Close (cancel)" onClick={() => onAnswer('cancel')}>
          ×
        </button>
      </header>
      <div className="modal__body" ref={body}>
        <p id={leadId} className="consent__lead">
          Asked by the server <strong>{server}</strong>
          {request.during ? <> while running {visibleText(request.during)}</> : null}. Its message:
        </p>
        <blockquote className="elicitation__message plain-text">{request.message ? visibleText(request.message, { multiline: true }) : '(no message)'}</blockquote>
        {url ? (
          <UrlPart request={request} onAnswer={onAnswer} open={open} declineRef={declineRef} />
        ) : (
          <FormPart request={request} formId={formId} onAnswer={onAnswer} refusal={refusal} />
        )}
        <p className="muted elicitation__choices">
          <strong>Decline</strong> tells the server “no”: you refuse what it asks. <strong>Cancel</strong> dismisses the question without answering
          either way.
        </p>
        <QueueStatus deadline={request.deadline} outcome="Cancelled" onExpire={() => onAnswer('cancel')} waiting={waiting} noun="question" />
      </div>
      {url ? null : (
        <footer className="modal__actions">
          <button type="button" className="button" title="Dismiss without answering" onClick={() => onAnswer('cancel')}>
            Cancel
          </button>
          <button type="button" className="button" title="Tell the server no" onClick={() => onAnswer('decline')}>
            Decline
          </button>
          <button type="submit" form={formId} className="button button--primary">
            Accept
          </button>
        </footer>
      )}
    </Modal>
  );
}

function FormPart({
  request,
  formId,
  onAnswer,
  refusal,
}: {
  readonly request: PendingElicitation;
  readonly formId: string;
  readonly onAnswer: Props['onAnswer'];
  readonly refusal: string | undefined;
}) {
  const form = useSchemaForm(request.requestedSchema);
  const sensitive = useMemo(() => sensitiveFields(form.schema), [form.schema]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = form.submit();
    if (result.ok) onAnswer('accept', result.value);
  };
  return (
    <>
      {sensitive.length > 0 ? (
        <div className="notice notice--warn elicitation__sensitive" role="note">
          <p className="notice__message">
            Careful: {sensitive.map((f) => `“${f.label}”`).join(', ')} look{sensitive.length === 1 ? 's' : ''} like{' '}
            {sensitive.length === 1 ? 'it asks' : 'they ask'} for a password, token or key.
          </p>
          <p>
            Servers must not ask for secrets in a form (the MCP specification forbids it); a legitimate server sends you to its own sign-in page
            instead. Decline unless you are sure.
          </p>
        </div>
      ) : null}
      {refusal ? (
        <div className="notice notice--error" role="alert">
          <p className="notice__message">Not sent. {visibleText(refusal, { multiline: true })}</p>
        </div>
      ) : null}
      <form id={formId} noValidate onSubmit={submit} aria-label={`Answer to ${visibleText(request.server)}`}>
        <SchemaFields form={form} autoFocus emptyText="The server asks for no fields: Accept just says yes." />
      </form>
    </>
  );
}

function UrlPart({
  request,
  onAnswer,
  open,
  declineRef,
}: {
  readonly request: PendingElicitation;
  readonly onAnswer: Props['onAnswer'];
  readonly open: Props['open'];
  readonly declineRef: RefObject<HTMLButtonElement | null>;
}) {
  const review = useMemo(() => reviewUrl(request.url ?? ''), [request.url]);
  return (
    <>
      <UrlView review={review} label="The page" />
      <p className="muted">
        Harbor does not load this page. If you open it, it opens in your web browser, outside Harbor, and the server learns that you did.
      </p>
      <div className="modal__actions elicitation__url-actions">
        <button type="button" className="button" title="Dismiss without answering" onClick={() => onAnswer('cancel')}>
          Cancel
        </button>
        <button type="button" className="button" title="Tell the server no" ref={declineRef} onClick={() => onAnswer('decline')}>
          Decline
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!review.openable}
          onClick={() => {
            if (openExternally(review, open)) onAnswer('accept');
          }}
        >
          Open in browser
        </button>
      </div>
    </>
  );
}
