/**
 * What an app asks that only the person can allow: opening a link, adding a message to the
 * conversation, saving a file. Each becomes a question in a dialog (AppRequestDialog) and is
 * answered yes or no; these helpers turn the app's raw request into what the dialog shows.
 */

export interface DownloadFile {
  /** A plain file name (no folders), from the last part of the resource's URI. */
  readonly name: string;
  readonly mimeType: string;
  readonly data: Blob;
}

export type PersonRequest =
  | { readonly kind: 'link'; readonly url: string }
  | { readonly kind: 'message'; readonly text: string; readonly omitted: number }
  | { readonly kind: 'download'; readonly files: readonly DownloadFile[]; readonly links: readonly string[] };

/** What the person decided: for a download, how many files they saved. */
export type PersonAnswer = { readonly allowed: boolean; readonly saved?: number };

export const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;
const MAX_FILES = 20;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** The text of a ui/message's content blocks; other blocks (images…) are counted, not sent. */
export function messageText(content: unknown): { text: string; omitted: number } {
  const blocks = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  let omitted = 0;
  for (const block of blocks) {
    const b = record(block);
    if (b?.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b) omitted += 1;
  }
  return { text: texts.join('\n\n').trim(), omitted };
}

/** A file name a person can save as: no path, no control or reserved characters, never empty. */
export function safeFileName(uri: string, fallback = 'download'): string {
  let last: string;
  try {
    last = decodeURIComponent(new URL(uri).pathname.split('/').filter(Boolean).at(-1) ?? '');
  } catch {
    last = uri.split(/[\\/]/).filter(Boolean).at(-1) ?? '';
  }
  const cleaned = [...last]
    .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '-' : c))
    .join('')
    .replace(/^\.+/, '')
    .slice(0, 120)
    .trim();
  return cleaned || fallback;
}

function base64Bytes(blob: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(blob);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/**
 * The files of a ui/download-file request (embedded text or base64 content), and the https links
 * it names instead (the person may open those in the browser). Throws with a reason a person can
 * read when the request is too large or has nothing to save.
 */
export function downloadFiles(contents: unknown): { files: DownloadFile[]; links: string[] } {
  const items = Array.isArray(contents) ? contents.slice(0, MAX_FILES) : [];
  const files: DownloadFile[] = [];
  const links: string[] = [];
  let total = 0;
  for (const raw of items) {
    const item = record(raw);
    if (item?.type === 'resource_link' && typeof item.uri === 'string') {
      links.push(item.uri);
      continue;
    }
    const resource = record(item?.resource);
    if (item?.type !== 'resource' || !resource || typeof resource.uri !== 'string') continue;
    const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : 'application/octet-stream';
    let data: Blob | undefined;
    if (typeof resource.text === 'string') data = new Blob([resource.text], { type: mimeType });
    else if (typeof resource.blob === 'string') {
      const bytes = base64Bytes(resource.blob);
      if (bytes) data = new Blob([bytes], { type: mimeType });
    }
    if (!data) continue;
    total += data.size;
    if (total > MAX_DOWNLOAD_BYTES) throw new Error(`The files are larger than ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB; Harbor does not save them.`);
    files.push({ name: safeFileName(resource.uri), mimeType, data });
  }
  if (files.length === 0 && links.length === 0) throw new Error('The app asked to save a file but sent nothing Harbor can save.');
  return { files, links };
}

interface SaveFilePicker {
  showSaveFilePicker?: (options: { suggestedName: string }) => Promise<{ createWritable(): Promise<{ write(data: Blob): Promise<void>; close(): Promise<void> }> }>;
}

/**
 * Saves one file where the person picks (the browser's save dialog, in Chromium and Electron);
 * elsewhere the browser's own download asks or uses its folder. Resolves false when the person
 * cancelled the picker.
 */
export async function saveFile(file: DownloadFile, win: Window & SaveFilePicker = window): Promise<boolean> {
  if (typeof win.showSaveFilePicker === 'function') {
    try {
      const handle = await win.showSaveFilePicker({ suggestedName: file.name });
      const writable = await handle.createWritable();
      await writable.write(file.data);
      await writable.close();
      return true;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return false;
      throw error;
    }
  }
  const url = URL.createObjectURL(file.data);
  const link = win.document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  link.hidden = true;
  win.document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}
