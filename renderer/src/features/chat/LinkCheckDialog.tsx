import { useId, useMemo, useRef } from 'react';
import { Modal } from '../consent/Modal';
import { OPENABLE_LINK_SCHEMES, openExternally, reviewUrl } from '../elicitation/url-safety';
import { UrlView } from '../elicitation/UrlView';

/**
 * A link in model or server text is checked with the person before it opens: the real address
 * (link text can say anything) with its site highlighted, then the system browser, never the app.
 */
export function LinkCheckDialog({ href, onClose }: { readonly href: string; readonly onClose: () => void }) {
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const review = useMemo(() => reviewUrl(href, OPENABLE_LINK_SCHEMES), [href]);
  return (
    <Modal labelledBy={titleId} onCancel={onClose} initialFocus={cancelRef} className="link-check">
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          Open this link in your browser?
        </h2>
      </header>
      <div className="modal__body">
        <p className="consent__lead">The link text came from the conversation; this is where it really goes.</p>
        <UrlView review={review} label="Link" />
      </div>
      <footer className="modal__actions">
        <button type="button" className="button" ref={cancelRef} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!review.openable}
          onClick={() => {
            openExternally(review);
            onClose();
          }}
        >
          Open in browser
        </button>
      </footer>
    </Modal>
  );
}
