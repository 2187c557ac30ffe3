/**
 * A data: URI for an image a server sent (tool result, resource), or undefined. Shown only as
 * inline data of a raster type (never a URL the server chose, which would be a tracking beacon or
 * worse; never SVG, which can carry script), strictly base64 and of bounded size.
 */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MAX_IMAGE_CHARS = 8_000_000;

export function imageSource(mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== 'string' || typeof data !== 'string') return undefined;
  const type = mimeType.toLowerCase().trim();
  const clean = data.replace(/\s+/g, '');
  if (!IMAGE_TYPES.has(type) || clean.length > MAX_IMAGE_CHARS || !BASE64.test(clean)) return undefined;
  return `data:${type};base64,${clean}`;
}
