import { lazy, memo, Suspense, type ComponentProps } from 'react';

// The Markdown stack (parser, GitHub extensions, code highlighter) is most of the chat's code: it loads
// with the first message that needs it, not with the first paint of an empty chat.
const Markdown = lazy(() => import('./Markdown').then((m) => ({ default: m.Markdown })));

/** Model text as Markdown; until the renderer has loaded (once per session), the same text as written. Props: see Markdown. */
export const LazyMarkdown = memo(function LazyMarkdown(props: ComponentProps<typeof Markdown>) {
  return (
    <Suspense fallback={<div className="md md--plain">{props.text}</div>}>
      <Markdown {...props} />
    </Suspense>
  );
});
