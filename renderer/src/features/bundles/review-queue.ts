import type { BundleReviewData } from '../../../../preload/contract';

type Listener = (review: BundleReviewData) => void;
const listeners = new Set<Listener>();

/**
 * How a page hands a bundle's review to the app-wide dialog (BundleHost): a picked or dropped
 * file, a gallery download. The desktop app's "open with Harbor" arrives as the bundles.opened event.
 */
export function showBundleReview(review: BundleReviewData): void {
  for (const listener of listeners) listener(review);
}

export function onBundleReview(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
