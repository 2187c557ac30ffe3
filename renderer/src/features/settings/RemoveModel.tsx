import { useEffect, useRef, useState } from 'react';

interface Props {
  readonly disabled: boolean;
  /** Removes the model; resolves once the Host answered (its failure is shown by the panel). */
  readonly onRemove: () => Promise<void>;
}

/**
 * "Remove model", then a confirmation in place, as removing a server asks (focus moves to Cancel;
 * Cancel or Escape backs out): chat stops working the moment the model goes.
 */
export function RemoveModel({ disabled, onRemove }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  const back = () => {
    setConfirming(false);
    queueMicrotask(() => openRef.current?.focus());
  };
  const remove = async () => {
    setBusy(true);
    await onRemove();
    setBusy(false);
    setConfirming(false);
  };

  if (!confirming) {
    return (
      <button ref={openRef} type="button" className="button button--danger" disabled={disabled} onClick={() => setConfirming(true)}>
        Remove model
      </button>
    );
  }
  return (
    <div
      className="notice notice--warn confirm"
      role="group"
      aria-label="Confirm removing the model"
      onKeyDown={(e) => {
        if (e.key === 'Escape') back();
      }}
    >
      <p className="notice__message">Remove the model? Chat stops working until you set one again. A key kept in the keychain stays there.</p>
      <div className="actions">
        <button type="button" className="button button--danger" disabled={busy} onClick={() => void remove()}>
          {busy ? 'Removing…' : 'Remove the model'}
        </button>
        <button ref={cancelRef} type="button" className="button" disabled={busy} onClick={back}>
          Cancel
        </button>
      </div>
    </div>
  );
}
