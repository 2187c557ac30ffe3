import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ConfirmInPlace, useConfirmInPlace } from '../../ui/ConfirmInPlace';
import { ErrorMessage } from '../../ui/ErrorMessage';

/** "Remove", then a confirmation in place (focus moves to it; Cancel or Escape backs out). */
export function RemoveServer({ name }: { readonly name: string }) {
  const api = useHarbor();
  const { confirming, openRef, cancelRef, open, back } = useConfirmInPlace();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const remove = async () => {
    setBusy(true);
    const result = await api.servers.remove({ name });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
  };

  if (!confirming) {
    return (
      <button ref={openRef} type="button" className="button button--danger button--icon server-detail__remove" aria-label={`Remove ${name}`} title={`Remove ${name}`} onClick={open}>
        <Trash2 aria-hidden="true" size={15} />
      </button>
    );
  }
  return (
    <ConfirmInPlace
      label={`Confirm removing ${name}`}
      message={
        <>
          Remove <strong>{name}</strong>? Harbor stops it and deletes its entry from the configuration file. Secrets it used stay in the keychain.
        </>
      }
      action={`Remove ${name}`}
      busy={busy}
      onConfirm={() => void remove()}
      onBack={back}
      cancelRef={cancelRef}
    >
      {error ? <ErrorMessage error={error} /> : null}
    </ConfirmInPlace>
  );
}
