import { useCallback, useRef, useState, type RefCallback } from 'react';

/**
 * Whether an element is narrower than `px` (its own width, not the window's: the app's navigation
 * beside it may be wide or collapsed). Returns a ref to put on the element, and the answer.
 */
export function useNarrow<T extends HTMLElement>(px: number): readonly [RefCallback<T>, boolean] {
  const [narrow, setNarrow] = useState(false);
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const ref = useCallback(
    (element: T | null) => {
      observer.current?.disconnect();
      observer.current = undefined;
      if (!element || typeof ResizeObserver === 'undefined') return;
      const measure = (width: number) => setNarrow(width > 0 && width < px);
      measure(element.getBoundingClientRect().width);
      observer.current = new ResizeObserver((entries) => measure(entries[0]?.contentRect.width ?? 0));
      observer.current.observe(element);
    },
    [px],
  );
  return [ref, narrow] as const;
}
