import { lazy, memo, Suspense } from 'react';

// The Markdown stack (parser, GitHub extensions, code highlighter) is most of the chat's code: it loads
// with the first message that needs it, not with the first paint of an empty chat.
const Markdown = lazy(() => import('./Markdown').then((m) => ({ default: m.Markdown })));

/** Model text as Markdown; until the renderer has loaded (once per session), the same text as written. `cacheKey`: see Markdown. */
export const LazyMarkdown = memo(function LazyMarkdown({ text, cacheKey }: { readonly text: string; readonly cacheKey?: string | undefined }) {
  return (
    <Suspense fallback={<div className="md md--plain">{text}</div>}>
      <Markdown text={text} cacheKey={cacheKey} />
    </Suspense>
  );
});
