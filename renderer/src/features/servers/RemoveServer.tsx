import { Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

/** "Remove", then a confirmation in place (focus moves to it; Cancel or Escape backs out). */
export function RemoveServer({ name }: { readonly name: string }) {
  const api = useHarbor();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
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
    const result = await api.servers.remove({ name });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
  };

  if (!confirming) {
    return (
      <button ref={openRef} type="button" className="button button--danger button--icon server-detail__remove" aria-label={`Remove ${name}`} title={`Remove ${name}`} onClick={() => setConfirming(true)}>
        <Trash2 aria-hidden="true" size={15} />
      </button>
    );
  }
  return (
    <div
      className="notice notice--warn confirm"
      role="group"
      aria-label={`Confirm removing ${name}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') back();
      }}
    >
      <p className="notice__message">
        Remove <strong>{name}</strong>? Harbor stops it and deletes its entry from the configuration file. Secrets it used stay in the keychain.
      </p>
      <div className="actions">
        <button type="button" className="button button--danger" disabled={busy} onClick={() => void remove()}>
          {busy ? 'Removing…' : `Remove ${name}`}
        </button>
        <button ref={cancelRef} type="button" className="button" disabled={busy} onClick={back}>
          Cancel
        </button>
      </div>
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
