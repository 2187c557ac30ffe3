import { lazy, memo, Suspense } from 'react';
import type { HighlightedProps } from './HighlightedCode';

// Prism and its grammars load with the first code a row shows (a script card, a fenced block), not
// with the chat page's chunk: evaluating them was most of that chunk's one long task on a fresh page.
const HighlightedCode = lazy(() => import('./HighlightedCode').then((m) => ({ default: m.HighlightedCode })));

/** Highlighted code (props: see HighlightedCode); until the highlighter has loaded (once per session), the same text unhighlighted in the same box. */
export const LazyHighlightedCode = memo(function LazyHighlightedCode(props: HighlightedProps) {
  const { code, className, label, focusable = false } = props;
  return (
    <Suspense
      fallback={
        <pre className={className} aria-label={label} {...(focusable ? { tabIndex: 0 } : {})}>
          <code>{code}</code>
        </pre>
      }
    >
      <HighlightedCode {...props} />
    </Suspense>
  );
});
