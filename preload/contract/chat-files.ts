/** Files the person attaches to a chat message from their own computer: images and text files. */
import { z } from 'zod';

/**
 * What one message may carry. Images stay under the providers' common ceiling (5 MB of base64 at
 * Anthropic); text files are cut for the model at 100,000 characters anyway. In browser mode the
 * whole message travels in one WebSocket frame, so the total is capped too.
 */
export const FILE_LIMITS = {
  maxFiles: 8,
  maxImageBytes: 3_750_000,
  maxTextBytes: 512_000,
  maxTotalBytes: 8_000_000,
  /** A preview the page made of an image (a small data: URL), kept to show the message later. */
  maxThumbnailChars: 48_000,
} as const;

/** Raster types every vision provider takes (never SVG: it can carry script). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** base64 of `bytes` bytes is this many characters. */
export const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const THUMBNAIL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** Types that are certainly not text: refused by name before anything is read. */
const BINARY_TYPE = /^(audio|video|font|model)\/|^image\/|^application\/(pdf|zip|gzip|x-7z|x-rar|x-tar|octet-stream|vnd\.|msword|x-msdownload|wasm|x-executable)/;

export type FileKind = 'image' | 'text' | 'refused';

/**
 * How Harbor can attach a file, from its type (and name when the browser gave no type): images of
 * the four raster types, everything else that is not known binary is tried as UTF-8 text (the
 * Host checks the bytes: a file that is not valid text is refused then).
 */
export function fileKind(mimeType: string): FileKind {
  const type = mimeType.toLowerCase().split(';', 1)[0]!.trim();
  if ((IMAGE_MIME_TYPES as readonly string[]).includes(type)) return 'image';
  // SVG is XML: the model reads its source.
  if (type === 'image/svg+xml') return 'text';
  if (type !== '' && BINARY_TYPE.test(type)) return 'refused';
  return 'text';
}

/** A file on its way to the Host with a message (chat.send): its bytes as base64. */
export const FileUpload = z
  .object({
    name: z.string().trim().min(1).max(255),
    mimeType: z.string().max(200),
    data: z.string().max(base64Length(Math.max(FILE_LIMITS.maxImageBytes, FILE_LIMITS.maxTextBytes))).regex(BASE64, 'must be base64'),
    thumbnail: z.string().max(FILE_LIMITS.maxThumbnailChars).regex(THUMBNAIL, 'must be a data: URL of a PNG, JPEG or WebP image').optional(),
  })
  .strict();
export type FileUpload = z.infer<typeof FileUpload>;

export const FileUploads = z
  .array(FileUpload)
  .max(FILE_LIMITS.maxFiles)
  .refine((files) => files.reduce((sum, f) => sum + (f.data.length * 3) / 4, 0) <= FILE_LIMITS.maxTotalBytes + 2 * FILE_LIMITS.maxFiles, {
    message: `the files of one message may not exceed ${FILE_LIMITS.maxTotalBytes / 1_000_000} MB together`,
  });

/** A file attached to a sent message, as the conversation shows it. */
export const ChatFile = z.object({
  name: z.string(),
  kind: z.enum(['image', 'text']),
  mimeType: z.string(),
  bytes: z.number().int(),
  /** Text: the characters the model got (a long file is cut). */
  chars: z.number().int().optional(),
  /** Image: the preview the sending page made. */
  thumbnail: z.string().optional(),
});
export type ChatFile = z.infer<typeof ChatFile>;
