import { useId, useRef } from 'react';
import { Modal } from '../consent/Modal';

interface Props {
  /** What has unsaved edits: "your changes to notes", "the new server". */
  readonly what: string;
  readonly onKeep: () => void;
  readonly onDiscard: () => void;
}

/** Asked before typed edits are thrown away; "Keep editing" has the focus, Escape keeps editing. */
export function DiscardDialog({ what, onKeep, onDiscard }: Props) {
  const titleId = useId();
  const bodyId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={titleId} describedBy={bodyId} onCancel={onKeep} initialFocus={keepRef} className="discard-dialog">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          Discard unsaved changes?
        </h2>
      </header>
      <div className="modal__body">
        <p id={bodyId}>You have not saved {what}. If you leave now, they are lost.</p>
      </div>
      <footer className="modal__actions">
        <button type="button" className="button button--danger" onClick={onDiscard}>
          Discard changes
        </button>
        <button type="button" className="button button--primary" ref={keepRef} onClick={onKeep}>
          Keep editing
        </button>
      </footer>
    </Modal>
  );
}
