import type { CallToolResult } from '@modelcontextprotocol/client';

/** What a tool call gives the script: a value to resolve with, or the text of the error it throws. */
export type ScriptValue = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

type Block = CallToolResult['content'][number];

/** Decoded size of base64 data (padding excluded). */
function base64Bytes(data: string): number {
  return Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0));
}

/**
 * A content block as text for a script: text as is, an embedded text resource by its text, and
 * everything else (images, audio, links, binary resources) as a one-line summary — said, never
 * dropped silently, so the script knows the tool sent it.
 */
function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes: not available to scripts]`;
    case 'resource_link':
      return `[resource link: ${block.uri}${block.name && block.name !== block.uri ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return r.text;
      return `[resource ${r.uri}: ${r.mimeType ?? 'binary'}, ${base64Bytes((r as { blob?: string }).blob ?? '')} bytes: not available to scripts]`;
    }
    default:
      return `[${(block as { type: string }).type} content: not available to scripts]`;
  }
}

/**
 * A tool result as the script sees it: `structuredContent` when the tool sent it, else its
 * content as text (blocks joined by newlines). `isError` becomes the message of the Error the
 * script's call throws.
 */
export function scriptValueOf(result: CallToolResult): ScriptValue {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const text = blocks.map(blockText).join('\n');
  if (result.isError === true) return { ok: false, message: text || 'The tool reported an error without a message.' };
  if (result.structuredContent !== undefined) return { ok: true, value: result.structuredContent };
  return { ok: true, value: text };
}
