import { useRef, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { showBundleReview } from './review-queue';
import { uploadBundle } from './upload';

/** "Install a bundle…": a file picker for .mcpb files (dropping one on the window works too). */
export function BundlePicker() {
  const api = useHarbor();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(undefined);
    setProgress('Reading the bundle…');
    const result = await uploadBundle(api, file, (sent, total) => setProgress(`Sending ${Math.round((sent / total) * 100)}%…`));
    setProgress(undefined);
    if (input.current) input.current.value = '';
    if (result.ok) showBundleReview(result.value);
    else setError(asErrorData(result.error));
  };

  return (
    <div className="bundle-picker">
      <label className="button">
        Install a bundle (.mcpb)…
        <input ref={input} type="file" accept=".mcpb" className="visually-hidden" aria-label="Bundle file" onChange={(e) => void pick(e.target.files?.[0])} />
      </label>
      <span className="muted bundle-picker__hint">or drop a .mcpb file on this window</span>
      {progress ? (
        <p className="muted" role="status">
          {progress}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
