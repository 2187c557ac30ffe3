import { memo, useContext, useDeferredValue, useMemo, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type ExtraProps, type UrlTransform } from 'react-markdown';
import { measureOnce } from '../../lib/user-timing';
import { CodeBlock } from './CodeBlock';
import { renderGrowing, type GrowingMarkdown } from './growing-markdown';
import { LinkOpenerContext } from './link-opener';
import { remarkPlugins } from './markdown-blocks';
import { safeHref } from './safe-url';

export { LinkOpenerContext };

/** href: only http(s)/mailto survive; every other URL attribute (img src…) is dropped, so nothing loads by itself. */
const urlTransform: UrlTransform = (url, key) => (key === 'href' ? safeHref(url) : '');

function Link({ href, children }: { readonly href?: string | undefined; readonly children?: ReactNode }) {
  const open = useContext(LinkOpenerContext);
  if (!href) return <span className="md__dead-link">{children}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={href}
      onClick={(event) => {
        if (!open) return;
        event.preventDefault();
        open(href);
      }}
    >
      {children}
    </a>
  );
}

type HastNode = NonNullable<ExtraProps['node']>['children'][number];

/** The text of a node of the Markdown tree (a fenced block's code). */
function textOf(node: HastNode): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/** A fenced block: its language (from ```lang, class "language-lang") and its code, as written. */
function Fenced({ node }: ExtraProps) {
  const code = node?.children.find((child) => child.type === 'element' && child.tagName === 'code');
  const classes = code && code.type === 'element' ? code.properties.className : undefined;
  const language = (Array.isArray(classes) ? classes : [])
    .map(String)
    .find((c) => c.startsWith('language-'))
    ?.slice('language-'.length)
    .toLowerCase();
  return <CodeBlock code={code ? textOf(code) : ''} language={language ?? ''} />;
}

const components: Components = {
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  pre: ({ node }) => <Fenced node={node} />,
  // A model's image URL could carry conversation data to a third party the moment it loads: named, never fetched.
  img: ({ alt }) => <span className="md__image">[image{alt ? `: ${alt}` : ''}]</span>,
};

/**
 * The User Timing name of one Markdown parse: a performance profile shows each parse and its
 * duration, and the renderer benchmark counts them (a message should be parsed once) with a
 * PerformanceObserver — the entry is cleared from the timeline once written (`user-timing.ts`).
 */
export const MARKDOWN_PARSE = 'harbor.markdown.parse';

let parsesSoFar = 0;
/** How many Markdown parses this page has made (the timeline keeps none of their entries). */
export function markdownParses(): number {
  return parsesSoFar;
}

/** Text to React elements: parsed (remark, GitHub extensions), made safe, rendered through our components. */
function parse(text: string): ReactElement {
  const start = performance.now();
  // react-markdown's component is a plain function of its props (no hooks): called here, its result can be kept.
  const element = ReactMarkdown({ children: text, remarkPlugins, urlTransform, components });
  measureOnce(MARKDOWN_PARSE, start);
  parsesSoFar++;
  return element;
}

/**
 * Parsed messages, kept while their rows scroll out of a virtualized list and back: one entry per
 * message, the least recently shown dropped beyond KEPT. Keyed by the caller's key for the
 * message, or by the text itself. A message whose text grows under the same key is streaming: from
 * then on it is rendered block by block, each finished block parsed once (growing-markdown.ts).
 */
const parsed = new Map<string, { readonly text: string; readonly element: ReactElement; readonly growing?: GrowingMarkdown }>();
const KEPT = 2_000;

function parseOnce(key: string, text: string): ReactElement {
  const kept = parsed.get(key);
  parsed.delete(key);
  let entry = kept?.text === text ? kept : undefined;
  if (!entry && kept && text.startsWith(kept.text)) {
    const { element, state } = renderGrowing(kept.growing, text, parse);
    entry = { text, element, growing: state };
  }
  entry ??= { text, element: parse(text) };
  parsed.set(key, entry);
  if (parsed.size > KEPT) parsed.delete(parsed.keys().next().value!);
  return entry.element;
}

/** Whether `text` under `key` is parsed already (shown before, its row scrolled away and back). */
function isParsed(key: string, text: string): boolean {
  return parsed.get(key)?.text === text;
}

/** What a message not parsed yet shows first: its text as written, until its parse has run. */
const NOT_PARSED = Symbol('not parsed');

interface Props {
  readonly text: string;
  /** The message's lasting key: a message is parsed once under it, however often it is shown. */
  readonly cacheKey?: string | undefined;
  /**
   * A message shown for the first time shows its text as written at once and is parsed in a
   * deferred render, which React splits between messages: rows scrolled into view together cost a
   * task each, not one long task for all of them. (Off: parsed in the render that shows it.)
   */
  readonly deferFirstParse?: boolean | undefined;
}

/**
 * Model text as Markdown (GitHub flavour), safely: no raw HTML (react-markdown shows it as text
 * without rehype-raw), links only to http(s)/mailto and opened outside the app, no images loaded.
 * Fenced code is highlighted, labelled with its language and copyable. Each message is parsed
 * once, however often its row is shown again. While an answer streams, only its last block is
 * parsed again, at a lower priority than typing and scrolling: pieces that arrive during a parse
 * are taken together by the next one.
 */
export const Markdown = memo(function Markdown({ text, cacheKey, deferFirstParse }: Props) {
  // Only a first showing is deferred: a message parsed before renders at once, with no second render.
  const first = deferFirstParse && !isParsed(cacheKey ?? text, text) ? NOT_PARSED : undefined;
  const shown = useDeferredValue<string | typeof NOT_PARSED>(text, first);
  const content = useMemo(() => (shown === NOT_PARSED ? undefined : parseOnce(cacheKey ?? shown, shown)), [cacheKey, shown]);
  return content ? <div className="md">{content}</div> : <div className="md md--plain">{text}</div>;
});
