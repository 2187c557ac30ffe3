import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolResultPart } from 'ai';

/** What a tool result becomes for the provider: text, an error text, or text with image parts. */
export type ModelToolOutput = ToolResultPart['output'];

export const DEFAULT_RESULT_CAP_BYTES = 100_000;

export interface TranslateOptions {
  /** Whether the provider takes images inside a tool result. */
  readonly imageParts: boolean;
  /** Bytes of content (text, and images as base64) the model gets at most. */
  readonly capBytes: number;
}

export interface TranslatedResult {
  readonly output: ModelToolOutput;
  /** Bytes cut by the cap (0 when the whole result fit). */
  readonly truncatedBytes: number;
  readonly totalBytes: number;
}

type Piece = { kind: 'text'; text: string } | { kind: 'image'; data: string; mimeType: string };
type Block = CallToolResult['content'][number];

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;
/** Decoded size of base64 data (padding excluded). */
const base64Bytes = (data: string) => Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0));

function pieceOf(block: Block, imageParts: boolean): Piece {
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: block.text };
    case 'image':
      return imageParts
        ? { kind: 'image', data: block.data, mimeType: block.mimeType }
        : { kind: 'text', text: `[image ${block.mimeType}, ${base64Bytes(block.data)} bytes: not shown to this model]` };
    case 'audio':
      return { kind: 'text', text: `[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes: not shown to this model]` };
    case 'resource_link': {
      const about = [block.name && block.name !== block.uri ? `"${block.name}"` : '', block.mimeType ?? '', block.description ?? '']
        .filter(Boolean)
        .join(', ');
      return { kind: 'text', text: `[resource link: ${block.uri}${about ? ` (${about})` : ''}]` };
    }
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return { kind: 'text', text: `[resource ${r.uri}]\n${r.text}` };
      const blob = (r as { blob?: string }).blob ?? '';
      return { kind: 'text', text: `[resource ${r.uri}: ${r.mimeType ?? 'binary'}, ${base64Bytes(blob)} bytes: not shown to this model]` };
    }
    default:
      return { kind: 'text', text: `[${(block as { type: string }).type} content: not shown to this model]` };
  }
}

/** Cuts a string to at most `bytes` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, bytes: number): string {
  if (bytes <= 0) return '';
  let used = 0;
  let end = 0;
  for (const ch of text) {
    const size = byteLength(ch);
    if (used + size > bytes) break;
    used += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * Translates an MCP tool result for the model: text as is, resource links as references, embedded
 * resources by their text, images as image parts when the provider takes them (else a short
 * placeholder), `isError` as the provider's error flag, and anything past the cap cut with a note
 * saying how much was cut. The untruncated result is the caller's to keep.
 */
export function translateToolResult(result: CallToolResult, options: TranslateOptions): TranslatedResult {
  const blocks = Array.isArray(result.content) ? result.content : [];
  let pieces = blocks.map((b) => pieceOf(b, options.imageParts && result.isError !== true));
  if (pieces.length === 0) {
    pieces = [
      {
        kind: 'text',
        text: result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(the tool returned no content)',
      },
    ];
  }

  const sizes = pieces.map((p) => (p.kind === 'text' ? byteLength(p.text) : p.data.length));
  const totalBytes = sizes.reduce((a, b) => a + b, 0);
  let truncatedBytes = 0;
  if (totalBytes > options.capBytes) {
    const kept: Piece[] = [];
    let room = options.capBytes;
    pieces.forEach((piece, i) => {
      const size = sizes[i]!;
      if (size <= room) {
        kept.push(piece);
        room -= size;
      } else if (piece.kind === 'text') {
        const part = cutToBytes(piece.text, room);
        if (part) kept.push({ kind: 'text', text: part });
        truncatedBytes += size - byteLength(part);
        room = 0;
      } else {
        kept.push({ kind: 'text', text: `[image ${piece.mimeType}: left out, the result was too large]` });
        truncatedBytes += size;
      }
    });
    kept.push({
      kind: 'text',
      text: `[Harbor: this result was truncated — ${truncatedBytes} of ${totalBytes} bytes were cut (limit ${options.capBytes}). The full result is kept in the conversation.]`,
    });
    pieces = kept;
  }

  const texts = pieces.filter((p): p is Extract<Piece, { kind: 'text' }> => p.kind === 'text').map((p) => p.text);
  if (result.isError === true) return { output: { type: 'error-text', value: texts.join('\n') }, truncatedBytes, totalBytes };
  if (pieces.some((p) => p.kind === 'image')) {
    return {
      output: {
        type: 'content',
        value: pieces.map((p) =>
          p.kind === 'text' ? { type: 'text' as const, text: p.text } : { type: 'file' as const, mediaType: p.mimeType, data: { type: 'data' as const, data: p.data } },
        ),
      },
      truncatedBytes,
      totalBytes,
    };
  }
  return { output: { type: 'text', value: texts.join('\n') }, truncatedBytes, totalBytes };
}

/** A failure the model should see as the tool's error (unknown tool, denied, timeout, …). */
export function toolErrorOutput(message: string): ModelToolOutput {
  return { type: 'error-text', value: message };
}
