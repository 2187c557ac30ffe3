import { FILE_LIMITS, fileKind, type ChatFile } from '../../../../preload/contract';
import type { FileAttachment } from './chat-controller';

/** The longest side of an image's preview in the conversation, px. */
const THUMBNAIL_PX = 160;

/** Types the browser leaves empty for common text files, by extension. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  ts: 'text/plain',
  tsx: 'text/plain',
  jsx: 'text/plain',
  py: 'text/x-python',
  rs: 'text/plain',
  go: 'text/plain',
  toml: 'text/plain',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  log: 'text/plain',
};

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(bytes < 1_000_000 ? 2 : 1)} MB`;

export function typeOf(file: File): string {
  if (file.type) return file.type.toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return TEXT_TYPES[extension] ?? '';
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** A small preview of an image (WebP, else JPEG), or undefined where the page cannot draw one. */
async function thumbnail(file: File): Promise<string | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, THUMBNAIL_PX / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    for (const [type, quality] of [
      ['image/webp', 0.8],
      ['image/jpeg', 0.7],
      ['image/jpeg', 0.4],
    ] as const) {
      const url = canvas.toDataURL(type, quality);
      if (url.startsWith(`data:${type};`) && url.length <= FILE_LIMITS.maxThumbnailChars) return url;
    }
  } catch {
    // No preview: the chip shows an image icon instead.
  }
  return undefined;
}

export interface ReadOutcome {
  readonly added: FileAttachment[];
  /** One sentence per file that cannot go, naming it and why. */
  readonly refused: string[];
}

/**
 * Reads files the person dropped, pasted or picked, checking them as the Host will (type, size,
 * UTF-8 text, the model taking images) so a refusal comes at once, naming the file and the fix.
 */
export async function readFiles(files: readonly File[], current: readonly FileAttachment[], model: { readonly name: string; readonly images: boolean }): Promise<ReadOutcome> {
  const added: FileAttachment[] = [];
  const refused: string[] = [];
  let total = current.reduce((sum, f) => sum + f.file.bytes, 0);
  for (const file of files) {
    const name = (file.name || 'pasted file').slice(0, 255);
    const mimeType = typeOf(file);
    const kind = fileKind(mimeType);
    if (current.length + added.length >= FILE_LIMITS.maxFiles) {
      refused.push(`${name}: a message carries at most ${FILE_LIMITS.maxFiles} files.`);
      continue;
    }
    if (kind === 'refused') {
      refused.push(`${name}: Harbor attaches images (PNG, JPEG, GIF, WebP) and text files, and this is ${mimeType}.`);
      continue;
    }
    if (kind === 'image' && !model.images) {
      refused.push(`${name}: the model ${model.name} does not take images. Choose one that does in Settings.`);
      continue;
    }
    const cap = kind === 'image' ? FILE_LIMITS.maxImageBytes : FILE_LIMITS.maxTextBytes;
    if (file.size > cap) {
      refused.push(`${name}: ${kind === 'image' ? 'images' : 'text files'} may be up to ${mb(cap)}, and this one is ${mb(file.size)}.`);
      continue;
    }
    if (total + file.size > FILE_LIMITS.maxTotalBytes) {
      refused.push(`${name}: the files of one message may not exceed ${mb(FILE_LIMITS.maxTotalBytes)} together.`);
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    let chars: number | undefined;
    if (kind === 'text') {
      try {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        if (text.includes('\u0000')) throw new Error('binary');
        chars = text.length;
      } catch {
        refused.push(`${name}: it is not UTF-8 text. Harbor attaches images (PNG, JPEG, GIF, WebP) and text files.`);
        continue;
      }
    }
    total += file.size;
    const preview = kind === 'image' ? await thumbnail(file) : undefined;
    const shown: ChatFile = {
      name,
      kind,
      mimeType: mimeType || 'text/plain',
      bytes: bytes.length,
      ...(chars !== undefined ? { chars: Math.min(chars, 100_000) } : {}),
      ...(preview ? { thumbnail: preview } : {}),
    };
    added.push({ file: shown, upload: { name, mimeType: shown.mimeType, data: base64(bytes), ...(preview ? { thumbnail: preview } : {}) } });
  }
  return { added, refused };
}
