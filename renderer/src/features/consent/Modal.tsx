import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import './consent.css';

interface Props {
  /** id of the element that names the dialog (its heading). */
  readonly labelledBy: string;
  readonly describedBy?: string;
  /** Escape, the close button and closing the dialog any other way: for consent that is "deny". */
  readonly onCancel: () => void;
  /** What gets focus when the dialog opens (e.g. Deny); default: the first focusable element. */
  readonly initialFocus?: RefObject<HTMLElement | null>;
  readonly className?: string;
  readonly children: ReactNode;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden && el.getAttribute('aria-hidden') !== 'true');
}

/**
 * A modal dialog: the native <dialog> in the top layer (the rest of the page is inert), focus
 * kept inside (Tab wraps around), Escape cancels, and focus goes back where it was afterwards.
 */
export function Modal({ labelledBy, describedBy, onCancel, initialFocus, className, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef(onCancel);
  const cancelled = useRef(false);

  useEffect(() => {
    cancelRef.current = onCancel;
  }, [onCancel]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    (initialFocus?.current ?? focusables(dialog)[0] ?? dialog).focus();
    // The browser's own Escape handling on a modal <dialog> arrives as "cancel": ours decides.
    const onNativeCancel = (event: Event) => {
      event.preventDefault();
      if (!cancelled.current) {
        cancelled.current = true;
        cancelRef.current();
      }
    };
    dialog.addEventListener('cancel', onNativeCancel);
    return () => {
      dialog.removeEventListener('cancel', onNativeCancel);
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      if (previous?.isConnected) previous.focus();
    };
    // Opened once per mount; a new request remounts the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (!cancelled.current) {
        cancelled.current = true;
        onCancel();
      }
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = focusables(ref.current);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items.at(-1)!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !ref.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !ref.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
    >
      {children}
    </dialog>
  );
}
