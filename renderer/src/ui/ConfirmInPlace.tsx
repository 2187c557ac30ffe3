import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * A destructive action asked about in place, not in a dialog (removing a server, the model): the
 * button opens a warning with the action and Cancel; focus moves to Cancel, and Cancel or Escape
 * backs out, putting focus back on the button.
 */
export function useConfirmInPlace(): {
  readonly confirming: boolean;
  readonly openRef: RefObject<HTMLButtonElement | null>;
  readonly open: () => void;
  readonly close: () => void;
  readonly back: () => void;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
} {
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);
  return {
    confirming,
    openRef,
    cancelRef,
    open: () => setConfirming(true),
    close: () => setConfirming(false),
    back: () => {
      setConfirming(false);
      queueMicrotask(() => openRef.current?.focus());
    },
  };
}

interface Props {
  /** The group's accessible name ("Confirm removing …"). */
  readonly label: string;
  readonly message: ReactNode;
  /** The action's button, and what it says while it runs. */
  readonly action: string;
  readonly busy: boolean;
  readonly onConfirm: () => void;
  readonly onBack: () => void;
  readonly cancelRef: RefObject<HTMLButtonElement | null>;
  /** Under the buttons: what went wrong, when it did. */
  readonly children?: ReactNode;
}

export function ConfirmInPlace({ label, message, action, busy, onConfirm, onBack, cancelRef, children }: Props) {
  return (
    <div
      className="notice notice--warn confirm"
      role="group"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onBack();
      }}
    >
      <p className="notice__message">{message}</p>
      <div className="actions">
        <button type="button" className="button button--danger" disabled={busy} onClick={onConfirm}>
          {busy ? 'Removing…' : action}
        </button>
        <button ref={cancelRef} type="button" className="button" disabled={busy} onClick={onBack}>
          Cancel
        </button>
      </div>
      {children}
    </div>
  );
}
