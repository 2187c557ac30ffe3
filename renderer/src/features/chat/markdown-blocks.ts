import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** The remark plugins of every Markdown parse: the block splitter reads text exactly as the renderer does. */
export const remarkPlugins = [remarkGfm];

// react-markdown's own front half (remark-parse and the same plugins), used only to find where top-level blocks start.
const lexer = unified().use(remarkParse).use(remarkPlugins);

/** A growing text's top-level blocks: those that can no longer change, and where the open one starts. */
export interface BlockSplit {
  /** The source of each finished block, in order (from the start of its first line to the start of the next block's). */
  readonly finished: readonly string[];
  /** Offset in the text where the open (last, still growing) block's first line starts. */
  readonly openStart: number;
  /**
   * A link or footnote definition is in the text: it applies to the whole message, wherever it
   * stands, so the message cannot be rendered block by block.
   */
  readonly definitions: boolean;
}

const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;

function hasDefinition(node: Nodes): boolean {
  if (node.type === 'definition' || node.type === 'footnoteDefinition') return true;
  return 'children' in node && node.children.some(hasDefinition);
}

/**
 * Splits a text that is still growing into top-level Markdown blocks. A block is finished only
 * when a later block has started and that later block lies wholly on complete lines (before the
 * last line break): a half-written line can still change what the lines before it are (`#`
 * becomes `#x`, a lazy paragraph line; `|-` becomes a table's delimiter row or not), a complete
 * one cannot undo the end of an earlier block.
 */
export function splitBlocks(text: string): BlockSplit {
  const tree: Root = lexer.parse(text);
  const settled = text.lastIndexOf('\n');
  const blocks = tree.children;
  let open = 0;
  for (let i = 1; i < blocks.length && (blocks[i]!.position?.end.offset ?? Infinity) <= settled; i += 1) open = i;
  const starts = blocks.slice(0, open + 1).map((block) => lineStart(text, block.position?.start.offset ?? 0));
  return {
    finished: starts.slice(0, open).map((start, i) => text.slice(start, starts[i + 1])),
    openStart: starts[open] ?? 0,
    definitions: hasDefinition(tree),
  };
}
