import type { Node } from 'jsonc-parser';
import { positionAt } from './jsonc';
import { jsoncParser } from './jsonc-library';

/**
 * Finds where a JSON path points in the raw text (comments allowed), so a problem in the registry
 * can be shown at the right line and column of the editor: the 1-based line and column of the
 * value at `path`, or of its nearest parent that is there.
 */
export function positionOfPath(text: string, path: readonly PropertyKey[]): { line: number; column: number } | undefined {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const { findNodeAtLocation, parseTree } = jsoncParser();
  const root = parseTree(body, [], { allowTrailingComma: true });
  if (!root) return undefined;
  const segments = path.map((key) => (typeof key === 'number' ? key : String(key)));
  for (let depth = segments.length; depth >= 0; depth--) {
    const node: Node | undefined = findNodeAtLocation(root, segments.slice(0, depth));
    if (node) return positionAt(body, node.offset);
  }
  return undefined;
}
