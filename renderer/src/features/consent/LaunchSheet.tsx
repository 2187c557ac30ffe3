import { useId, useRef, useState } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { Modal } from './Modal';

interface Props {
  /** The launch questions waiting, oldest first. */
  readonly requests: readonly ConsentRequest[];
  readonly onDecide: (id: string, decision: ConsentChoice) => void;
  /** "Later" and Escape: the sheet is put aside (a banner offers it again); nothing is answered. */
  readonly onLater: () => void;
}

/**
 * Every server waiting to start, in one sheet: what each runs (or reaches), Start or Deny for
 * each, and Start all. A Deny holds until the person starts the server themselves. Start is for
 * this run unless "Don't ask again" is ticked. Command lines go through visibleText.
 */
export function LaunchSheet({ requests, onDecide, onLater }: Props) {
  const titleId = useId();
  const leadId = useId();
  const laterRef = useRef<HTMLButtonElement>(null);
  const [remember, setRemember] = useState(false);
  const start = remember ? 'always' : 'once';
  return (
    <Modal labelledBy={titleId} describedBy={leadId} onCancel={onLater} initialFocus={laterRef} className="consent launch-sheet">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          Servers waiting to start
        </h2>
      </header>
      <div className="modal__body">
        <p id={leadId} className="consent__lead">
          {requests.length === 1 ? 'This server runs' : 'These servers run'} a program on your computer or reach an address. Start the ones you trust. A Deny holds until you start
          the server yourself.
        </p>
        <ul className="launch-sheet__list" aria-label="Waiting to start">
          {requests.map((request) => {
            const name = visibleText(request.server);
            const what = request.remote ? request.remote.url : (request.launch?.commandLine ?? '');
            return (
              <li key={request.id} className="launch-sheet__row">
                <div className="launch-sheet__what">
                  <strong>{name}</strong>
                  <code className="launch-sheet__command">{visibleText(what)}</code>
                  {request.launch && request.launch.envNames.length > 0 ? (
                    <span className="muted">Environment: {request.launch.envNames.map((n) => visibleText(n)).join(', ')} (values not shown)</span>
                  ) : null}
                </div>
                <div className="launch-sheet__actions">
                  <button type="button" className="button button--small" aria-label={`Deny ${name}`} onClick={() => onDecide(request.id, 'deny')}>
                    Deny
                  </button>
                  <button type="button" className="button button--small button--primary" aria-label={`Start ${name}`} onClick={() => onDecide(request.id, start)}>
                    {request.remote ? 'Connect' : 'Start'}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
        <label className="schema-form__check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <span>Don&apos;t ask again for these exact commands and addresses</span>
        </label>
      </div>
      <footer className="modal__actions">
        <button ref={laterRef} type="button" className="button" onClick={onLater}>
          Later
        </button>
        {requests.length > 1 ? (
          <button type="button" className="button button--primary" onClick={() => requests.forEach((r) => onDecide(r.id, start))}>
            Start all
          </button>
        ) : null}
      </footer>
    </Modal>
  );
}
