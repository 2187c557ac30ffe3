/**
 * Serves the built renderer (out/renderer) read-only. The path a browser asks for is decoded,
 * resolved and then checked to still lie inside the renderer folder — after following symlinks —
 * so `/../package.json`, `/%2e%2e/…` or an encoded backslash can never reach another file.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { SECURITY_HEADERS } from './security';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a request target (`/assets/x.js?v=1`) to a file inside `root`, or undefined when it is not a
 * file there. `root` must already be a real (symlink-free) absolute path.
 */
export async function resolveStaticPath(root: string, requestTarget: string): Promise<string | undefined> {
  const rawPath = requestTarget.split(/[?#]/, 1)[0] ?? '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return undefined; // malformed percent-encoding
  }
  if (decoded.includes('\0') || !decoded.startsWith('/')) return undefined;
  const relative = decoded === '/' ? 'index.html' : `.${decoded}`;
  const candidate = resolve(root, relative);
  if (!isInside(root, candidate)) return undefined;
  try {
    const real = await realpath(candidate);
    if (!isInside(root, real)) return undefined;
    const info = await stat(real);
    return info.isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

function isInside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse, headers: Readonly<Record<string, string>> = SECURITY_HEADERS): Promise<void> {
  const file = await resolveStaticPath(root, req.url ?? '/');
  if (!file) {
    sendText(res, 404, 'Not found');
    return;
  }
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    sendText(res, 404, 'Not found');
    return;
  }
  const isHtml = file.endsWith('.html');
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentTypeFor(file),
    'Content-Length': body.length,
    // index.html names the hashed bundles: always revalidate it; the bundles themselves never change.
    'Cache-Control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  const body = Buffer.from(`${text}\n`, 'utf8');
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
