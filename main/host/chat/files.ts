import type { ModelMessage } from 'ai';
import { FILE_LIMITS, fileKind, type ChatFile, type FileUpload } from '../../../preload/contract';
import { HarborError } from '../errors';
import { ATTACHMENT_CAP_CHARS } from './attachments';
import type { UserPart } from './conversations/repository';

/**
 * Files the person attaches from their computer, made into parts of their message: an image as an
 * image part (for a model that takes images) after a line naming it, a text file as text. Every
 * part begins with a header line, so the conversation can tell them from the person's own words.
 */

const HEADER = '[harbor:file ';

/** The first bytes of each image type: what the file says it is must be what it is. */
const SIGNATURES: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

export interface PreparedFiles {
  readonly parts: UserPart[];
  readonly files: ChatFile[];
  readonly hasImages: boolean;
}

export function isFilePart(text: string): boolean {
  return text.startsWith(HEADER);
}

function header(file: ChatFile): string {
  return `${HEADER}${JSON.stringify({ name: file.name, mimeType: file.mimeType, bytes: file.bytes })}]\n`;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(bytes < 1_000_000 ? 2 : 1)} MB`;

function refuse(name: string, why: string): never {
  throw new HarborError('BAD_REQUEST', `Cannot attach "${name}": ${why}`);
}

/**
 * Checks and decodes the uploads (types, sizes, that an image is the image it says and a text file
 * valid UTF-8 text) before anything is stored: one bad file fails the send, naming it and why.
 */
export function prepareFiles(uploads: readonly FileUpload[]): PreparedFiles {
  if (uploads.length > FILE_LIMITS.maxFiles) refuse(`${uploads.length} files`, `a message carries at most ${FILE_LIMITS.maxFiles} files.`);
  const parts: UserPart[] = [];
  const files: ChatFile[] = [];
  let total = 0;
  for (const upload of uploads) {
    const bytes = Buffer.from(upload.data, 'base64');
    total += bytes.length;
    if (total > FILE_LIMITS.maxTotalBytes) refuse(upload.name, `the files of one message may not exceed ${megabytes(FILE_LIMITS.maxTotalBytes)} together.`);
    const mimeType = upload.mimeType.toLowerCase().split(';', 1)[0]!.trim();
    const kind = fileKind(mimeType);
    if (kind === 'refused') refuse(upload.name, `Harbor attaches images (PNG, JPEG, GIF, WebP) and text files, and this is ${mimeType}.`);
    if (kind === 'image') {
      if (bytes.length > FILE_LIMITS.maxImageBytes) refuse(upload.name, `images may be up to ${megabytes(FILE_LIMITS.maxImageBytes)}, and this one is ${megabytes(bytes.length)}.`);
      if (!SIGNATURES[mimeType]?.(bytes)) refuse(upload.name, `it is not the ${mimeType} image it says it is.`);
      const file: ChatFile = { name: upload.name, kind: 'image', mimeType, bytes: bytes.length, ...(upload.thumbnail ? { thumbnail: upload.thumbnail } : {}) };
      parts.push({ type: 'text', text: `${header(file)}The person attached the image "${upload.name}".` });
      parts.push({ type: 'file', data: upload.data, mediaType: mimeType });
      files.push(file);
      continue;
    }
    if (bytes.length > FILE_LIMITS.maxTextBytes) refuse(upload.name, `text files may be up to ${megabytes(FILE_LIMITS.maxTextBytes)}, and this one is ${megabytes(bytes.length)}.`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      refuse(upload.name, 'it is not UTF-8 text. Harbor attaches images (PNG, JPEG, GIF, WebP) and text files.');
    }
    if (text.includes('\u0000')) refuse(upload.name, 'it is binary, not text. Harbor attaches images (PNG, JPEG, GIF, WebP) and text files.');
    const cut = text.length > ATTACHMENT_CAP_CHARS;
    const shown = cut ? `${text.slice(0, ATTACHMENT_CAP_CHARS)}\n[… cut: the file has ${text.length} characters, the first ${ATTACHMENT_CAP_CHARS} are attached]` : text;
    const file: ChatFile = { name: upload.name, kind: 'text', mimeType: mimeType || 'text/plain', bytes: bytes.length, chars: Math.min(text.length, ATTACHMENT_CAP_CHARS) };
    parts.push({ type: 'text', text: `${header(file)}The person attached the file "${upload.name}" (its content follows):\n${shown}` });
    files.push(file);
  }
  return { parts, files, hasImages: files.some((f) => f.kind === 'image') };
}

/**
 * The history as this model can take it: for a model without images (the person switched models
 * after attaching one), each image becomes a line saying it was not sent, instead of a failed turn.
 */
export function fitHistoryToModel(messages: readonly ModelMessage[], takesImages: boolean): ModelMessage[] {
  if (takesImages) return [...messages];
  return messages.map((message) => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    const isImage = (part: (typeof message.content)[number]) => part.type === 'image' || (part.type === 'file' && part.mediaType.startsWith('image/'));
    if (!message.content.some(isImage)) return message;
    return {
      ...message,
      content: message.content.map((part) => (isImage(part) ? { type: 'text' as const, text: '[The image is not sent: this model does not take images.]' } : part)),
    };
  });
}
