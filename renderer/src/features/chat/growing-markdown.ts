import { createElement, Fragment, type ReactElement, type ReactNode } from 'react';
import { splitBlocks } from './markdown-blocks';

/** What a streaming message keeps between its renders. */
export interface GrowingMarkdown {
  readonly text: string;
  /** Each finished top-level block, parsed once. */
  readonly finished: readonly ReactElement[];
  /** Where the open (last) block starts: everything from here is parsed again when text arrives. */
  readonly openStart: number;
  /** The message holds a definition: it is parsed whole from now on. */
  readonly whole: boolean;
}

/** Finished blocks and the open one, side by side as the whole text's rendering has them (a line break between). */
function joined(blocks: readonly ReactElement[]): ReactElement {
  const children: ReactNode[] = [];
  blocks.forEach((block, i) => children.push(...(i === 0 ? [block] : ['\n', block])));
  return createElement(Fragment, null, ...children);
}

/**
 * Renders a message that grows while it streams, re-parsing only its open last block: each block
 * that can no longer change is parsed once and its element kept, so an answer of any length costs
 * a parse of its last paragraph or code block per update, not of all of it. The result is the
 * same as parsing the whole text (test/unit/renderer/markdown-blocks.test.tsx compares them).
 * `previous`: what the last call returned for this message, or undefined to start from the top.
 */
export function renderGrowing(
  previous: GrowingMarkdown | undefined,
  text: string,
  parse: (text: string) => ReactElement,
): { readonly element: ReactElement; readonly state: GrowingMarkdown } {
  const kept = previous && text.startsWith(previous.text) ? previous : undefined;
  if (kept?.whole) return { element: parse(text), state: { ...kept, text } };
  const from = kept?.openStart ?? 0;
  const split = splitBlocks(text.slice(from));
  if (split.definitions) return { element: parse(text), state: { text, finished: [], openStart: 0, whole: true } };
  const finished = [...(kept?.finished ?? []), ...split.finished.map(parse)];
  const openStart = from + split.openStart;
  const open = text.slice(openStart);
  const blocks = open.trim() === '' && finished.length > 0 ? finished : [...finished, parse(open)];
  return { element: joined(blocks), state: { text, finished, openStart, whole: false } };
}
