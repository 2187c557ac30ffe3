import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ChatAttachment } from '../../../preload/contract';
import { HarborError } from '../errors';

/** What the chat needs to read an attachment: the Host's resource read (no consent: the person chose it). */
export interface AttachmentReader {
  readResource(server: string, uri: string, options?: { signal?: AbortSignal }): Promise<ReadResourceResult>;
}

/** Text of one attachment the model gets at most; the rest is cut with a note. */
export const ATTACHMENT_CAP_CHARS = 100_000;

/**
 * The first line of an attachment part in a stored user message. It names the resource for the
 * model, and lets the store show the attachment as a chip instead of its whole text.
 */
const HEADER = '[harbor:attachment ';
const HEADER_LINE = /^\[harbor:attachment (\{[^\n]*\})\]\n/;

/** A resource's contents as text: text parts as they are, binary parts named, never decoded. */
export function resourceText(result: ReadResourceResult): string {
  return (result.contents ?? [])
    .map((part) => {
      if ('text' in part && typeof part.text === 'string') return part.text;
      const bytes = 'blob' in part && typeof part.blob === 'string' ? Math.floor((part.blob.length * 3) / 4) : 0;
      return `[binary content ${part.mimeType ?? ''} of ${bytes} bytes at ${part.uri}: not attached]`;
    })
    .join('\n\n');
}

/** One attachment as a text part of the person's message. */
export function attachmentPart(attachment: ChatAttachment, text: string): string {
  const meta = { server: attachment.server, uri: attachment.uri, ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}), chars: text.length };
  return `${HEADER}${JSON.stringify(meta)}]\nThe person attached this resource from the server "${attachment.server}" (its content follows, as the server sent it):\n${text}`;
}

/** The attachment named by a stored part's header, or undefined when the part is not one. */
export function parseAttachmentPart(part: string): ChatAttachment | undefined {
  const match = HEADER_LINE.exec(part);
  if (!match) return undefined;
  try {
    const meta = JSON.parse(match[1]!) as Record<string, unknown>;
    if (typeof meta.server !== 'string' || typeof meta.uri !== 'string') return undefined;
    return {
      server: meta.server,
      uri: meta.uri,
      ...(typeof meta.mimeType === 'string' ? { mimeType: meta.mimeType } : {}),
      ...(typeof meta.chars === 'number' ? { chars: meta.chars } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Reads the resources the person attached, before the turn starts (a failed read fails the send
 * with the server's error, and nothing is stored). Returns the text parts for the user message.
 */
export async function readAttachments(reader: AttachmentReader, requested: readonly { server: string; uri: string }[], signal?: AbortSignal): Promise<string[]> {
  const parts: string[] = [];
  for (const { server, uri } of requested) {
    let result: ReadResourceResult;
    try {
      result = await reader.readResource(server, uri, signal ? { signal } : {});
    } catch (error) {
      const cause = error instanceof HarborError ? error : new HarborError('INTERNAL', String(error));
      throw new HarborError(cause.code, `Could not attach ${uri} from "${server}": ${cause.message}`, cause.detail);
    }
    let text = resourceText(result);
    if (text.length > ATTACHMENT_CAP_CHARS) {
      text = `${text.slice(0, ATTACHMENT_CAP_CHARS)}\n[… cut: the resource has ${text.length} characters, the first ${ATTACHMENT_CAP_CHARS} are attached]`;
    }
    const mimeType = result.contents?.[0]?.mimeType;
    parts.push(attachmentPart({ server, uri, ...(mimeType ? { mimeType } : {}) }, text));
  }
  return parts;
}
