import { ProtocolError, ProtocolErrorCode, type SamplingMessage } from '@modelcontextprotocol/client';
import type { FilePart, ImagePart, ModelMessage, TextPart } from 'ai';

/** One message of a sampling request as the person reviews it: its text (editable) and what else it carries. */
export interface ShownSamplingMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** "image (image/png, 12 KB)": content the person sees named but cannot edit. */
  readonly attachments: string[];
}

type Block = { readonly type: string; readonly text?: unknown; readonly data?: unknown; readonly mimeType?: unknown };

function blocksOf(message: SamplingMessage): Block[] {
  const content = message.content as unknown;
  return (Array.isArray(content) ? content : [content]).filter((b): b is Block => typeof b === 'object' && b !== null && typeof (b as Block).type === 'string');
}

function sizeOf(base64: unknown): string {
  const bytes = typeof base64 === 'string' ? Math.floor((base64.length * 3) / 4) : 0;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/**
 * Harbor offers sampling without tool use (it declares `sampling` without `tools`): a request
 * carrying tool calls or tool results is not one it agreed to run.
 */
export function refuseToolUse(params: { readonly messages: readonly SamplingMessage[]; readonly tools?: unknown; readonly toolChoice?: unknown }): void {
  const toolBlock = params.messages.some((m) => blocksOf(m).some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  if (params.tools !== undefined || params.toolChoice !== undefined || toolBlock) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Harbor does not offer tool use in sampling (it did not declare sampling.tools): send the request without tools.');
  }
}

/** The messages as the person reviews them. */
export function showMessages(messages: readonly SamplingMessage[]): ShownSamplingMessage[] {
  return messages.map((message) => {
    const blocks = blocksOf(message);
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => String(b.text ?? ''))
      .join('\n\n');
    const attachments = blocks.filter((b) => b.type !== 'text').map((b) => `${b.type} (${typeof b.mimeType === 'string' ? `${b.mimeType}, ` : ''}${sizeOf(b.data)})`);
    return { role: message.role === 'assistant' ? 'assistant' : 'user', text, attachments };
  });
}

/**
 * The messages with the person's edits: `texts[i]`, when given, replaces message i's text (its
 * images and audio stay). A message that had no text gets the edited text as its own part.
 */
export function withEditedTexts(messages: readonly SamplingMessage[], texts: readonly (string | null)[] | undefined): SamplingMessage[] {
  if (!texts) return [...messages];
  return messages.map((message, i) => {
    const edited = texts[i];
    if (edited === undefined || edited === null) return message;
    const others = blocksOf(message).filter((b) => b.type !== 'text');
    return { ...message, content: [{ type: 'text', text: edited }, ...others] } as SamplingMessage;
  });
}

/** The messages in the AI SDK's shape: text, images (users only) and audio as files. */
export function toModelMessages(messages: readonly SamplingMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    const assistant = message.role === 'assistant';
    const parts = blocksOf(message).flatMap((b): (TextPart | ImagePart | FilePart)[] => {
      if (b.type === 'text') return [{ type: 'text', text: String(b.text ?? '') }];
      if (typeof b.data !== 'string') return [];
      if (b.type === 'image' && !assistant) return [{ type: 'image', image: b.data, mediaType: String(b.mimeType ?? 'image/png') }];
      if (b.type === 'image' || b.type === 'audio') return [{ type: 'file', data: b.data, mediaType: String(b.mimeType ?? 'application/octet-stream') }];
      return [];
    });
    return assistant ? { role: 'assistant', content: parts.filter((p): p is TextPart | FilePart => p.type !== 'image') } : { role: 'user', content: parts };
  });
}
