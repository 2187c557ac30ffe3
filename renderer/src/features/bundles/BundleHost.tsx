import { useCallback, useEffect, useState } from 'react';
import type { BundleReviewData, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { BundleDialog } from './BundleDialog';
import { onBundleReview, showBundleReview } from './review-queue';
import { uploadBundle } from './upload';
import './bundles.css';

/**
 * App-wide: the bundle install dialog, one bundle at a time, whatever page is open — for a file
 * the desktop app was asked to open (waiting ones fetched on load), one picked on a page, or a
 * .mcpb dropped anywhere on the window.
 */
export function BundleHost() {
  const api = useHarbor();
  const [queue, setQueue] = useState<readonly BundleReviewData[]>([]);
  const [dropError, setDropError] = useState<HarborErrorData | undefined>();

  useEffect(() => {
    let live = true;
    const add = (review: BundleReviewData) => setQueue((q) => (q.some((r) => r.id === review.id) ? q : [...q, review]));
    const offLocal = onBundleReview(add);
    const offOpened = api.on.bundles.opened(add);
    void api.bundles.pending({}).then((result) => {
      if (live && result.ok) result.value.forEach(add);
    });
    return () => {
      live = false;
      offLocal();
      offOpened();
    };
  }, [api]);

  useEffect(() => {
    const isBundle = (event: DragEvent) => [...(event.dataTransfer?.items ?? [])].some((item) => item.kind === 'file');
    const onDragOver = (event: DragEvent) => {
      if (isBundle(event)) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const file = [...(event.dataTransfer?.files ?? [])].find((f) => f.name.toLowerCase().endsWith('.mcpb'));
      if (!file) return;
      event.preventDefault();
      setDropError(undefined);
      void uploadBundle(api, file).then((result) => (result.ok ? showBundleReview(result.value) : setDropError(asErrorData(result.error))));
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [api]);

  const close = useCallback((id: string) => setQueue((q) => q.filter((r) => r.id !== id)), []);
  const current = queue[0];
  return (
    <>
      {dropError ? (
        <div className="bundle-drop-error notice notice--error" role="alert">
          <p className="notice__message">{dropError.message}</p>
          <button type="button" className="button button--small" onClick={() => setDropError(undefined)}>
            Dismiss
          </button>
        </div>
      ) : null}
      {current ? <BundleDialog key={current.id} review={current} onClose={() => close(current.id)} /> : null}
    </>
  );
}
