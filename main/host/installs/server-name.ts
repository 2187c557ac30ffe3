/**
 * A registry name for an installed server, from a bundle's or a server.json's name: the part a
 * person recognises ("io.github.acme/weather" → "weather"), in the characters the registry editor
 * accepts (letters, digits, space, ".", "_", "-"; a letter or digit first; at most 100).
 */
export function suggestServerName(raw: string): string {
  const last = raw.split('/').filter(Boolean).pop() ?? raw;
  const cleaned = last
    .replace(/^@/, '')
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[-\s]+$/, '')
    .slice(0, 100);
  return cleaned || 'server';
}
