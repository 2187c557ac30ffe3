import { useState } from 'react';
import { ConfirmInPlace, useConfirmInPlace } from '../../ui/ConfirmInPlace';

interface Props {
  readonly disabled: boolean;
  /** Removes the model; resolves once the Host answered (its failure is shown by the panel). */
  readonly onRemove: () => Promise<void>;
}

/** "Remove model", then a confirmation in place, as removing a server asks: chat stops working the moment the model goes. */
export function RemoveModel({ disabled, onRemove }: Props) {
  const { confirming, openRef, cancelRef, open, close, back } = useConfirmInPlace();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    await onRemove();
    setBusy(false);
    close();
  };

  if (!confirming) {
    return (
      <button ref={openRef} type="button" className="button button--danger" disabled={disabled} onClick={open}>
        Remove model
      </button>
    );
  }
  return (
    <ConfirmInPlace
      label="Confirm removing the model"
      message="Remove the model? Chat stops working until you set one again. A key kept in the keychain stays there."
      action="Remove the model"
      busy={busy}
      onConfirm={() => void remove()}
      onBack={back}
      cancelRef={cancelRef}
    />
  );
}
