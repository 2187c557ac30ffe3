import { useId, useRef } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { ConsentDetails } from './ConsentDetails';
import { consentWords } from './consent-words';
import { Countdown } from './Countdown';
import { Modal } from './Modal';

interface Props {
  readonly request: ConsentRequest;
  /** Further requests waiting behind this one. */
  readonly waiting: number;
  readonly onDecide: (decision: ConsentChoice) => void;
}

/**
 * The person decides before a tool runs outside a chat (by hand, an App, code mode), a server
 * launches (a stdio command line; a remote server's address and header names) or a server gets a
 * keychain secret that was not set for it. A chat's own calls are asked in its transcript instead
 * (`ConsentCard`). Deny has the focus; Escape and closing deny.
 */
export function ConsentDialog({ request, waiting, onDecide }: Props) {
  const denyRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const leadId = useId();
  const { title, labels, options, appSession } = consentWords(request);

  return (
    <Modal labelledBy={titleId} describedBy={leadId} onCancel={() => onDecide('deny')} initialFocus={denyRef} className="consent">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title" data-consent-id={request.id}>
          {title}
        </h2>
        <button type="button" className="modal__close" aria-label="Close (deny)" onClick={() => onDecide('deny')}>
          ×
        </button>
      </header>

      {/* Focusable: a long description or diff scrolls here, and a keyboard must be able to scroll it too. */}
      <div className="modal__body" tabIndex={0} role="region" aria-label="What is asked">
        <ConsentDetails request={request} leadId={leadId} />
        {appSession ? (
          <p className="consent__note consent__app-session">{appSession}</p>
        ) : null}
        <Countdown deadline={request.deadline} outcome="Denied" onExpire={() => onDecide('deny')} />
        {waiting > 0 ? (
          <p className="muted">
            {waiting} more request{waiting === 1 ? '' : 's'} waiting after this one.
          </p>
        ) : null}
      </div>

      <footer className="modal__actions">
        {options.map((option) =>
          option === 'deny' ? (
            <button key={option} ref={denyRef} type="button" className="button" onClick={() => onDecide('deny')}>
              {labels.deny}
            </button>
          ) : (
            <button
              key={option}
              type="button"
              className={`button${option === 'once' ? ' button--primary' : ''}`}
              onClick={() => onDecide(option)}
            >
              {labels[option]}
            </button>
          ),
        )}
      </footer>
    </Modal>
  );
}
