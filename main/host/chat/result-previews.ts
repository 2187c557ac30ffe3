/**
 * Large tool results as previews, for a page opening a long conversation: the reply of
 * conversations.open would otherwise carry every closed card's result (megabytes, read by the page
 * as one task). A result whose JSON is longer than the page's threshold keeps its isError and
 * truncatedBytes, gets a short text preview and `omitted` (its size, blocks and images); the page
 * asks conversations.result for it whole when a card opens, its app needs it, or it shows images.
 */
import type { ChatToolResult, ChatTurn, Conversation } from '../../../preload/contract';

/** Characters of the first text block kept as the preview. */
export const PREVIEW_CHARS = 600;

function previewText(content: readonly unknown[]): string {
  for (const block of content) {
    const text = (block as { type?: unknown; text?: unknown } | null)?.type === 'text' ? (block as { text?: unknown }).text : undefined;
    if (typeof text === 'string') return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  }
  return '';
}

/** The result, or its preview when its JSON is longer than `over` characters. */
export function previewResult(result: ChatToolResult, over: number): ChatToolResult {
  const chars = JSON.stringify(result).length;
  if (chars <= over) return result;
  const images = result.content.filter((block) => (block as { type?: unknown } | null)?.type === 'image').length;
  return {
    content: [{ type: 'text', text: previewText(result.content) }],
    isError: result.isError,
    ...(result.truncatedBytes !== undefined ? { truncatedBytes: result.truncatedBytes } : {}),
    omitted: { chars, blocks: result.content.length, images },
  };
}

function previewTurn(turn: ChatTurn, over: number): ChatTurn {
  if (!turn.items.some((item) => item.kind === 'toolCall' && item.call.result)) return turn;
  return {
    ...turn,
    items: turn.items.map((item) => (item.kind === 'toolCall' && item.call.result ? { ...item, call: { ...item.call, result: previewResult(item.call.result, over) } } : item)),
  };
}

/** The conversation with every tool result longer than `over` characters as a preview. */
export function withResultPreviews(conversation: Conversation, over: number): Conversation {
  return { ...conversation, turns: conversation.turns.map((turn) => previewTurn(turn, over)) };
}
