/**
 * A tool call's arguments while the model is still writing them: partial JSON, made whole the way
 * the MCP Apps specification suggests (unclosed strings, arrays and objects closed), backing off
 * over a dangling key, comma or half a literal until what is left parses. Best effort: an app
 * must not rely on it, and undefined means "nothing usable yet".
 */

/** Beyond this many characters back from the end, give up (a tool's arguments are small). */
const MAX_BACKOFF = 256;
/** Longer argument texts are not reparsed on every piece. */
export const MAX_PARTIAL_CHARS = 64 * 1024;

/** `prefix` with its open string, arrays and objects closed. */
function closed(prefix: string): string {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const char of prefix) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') stack.pop();
  }
  let text = prefix;
  if (inString) text = (escaped ? text.slice(0, -1) : text) + '"';
  return text + stack.reverse().join('');
}

export function parsePartialJson(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_PARTIAL_CHARS) return undefined;
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  const body = text.slice(start);
  for (let end = body.length; end > 0 && body.length - end <= MAX_BACKOFF; end -= 1) {
    try {
      const value: unknown = JSON.parse(closed(body.slice(0, end)));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // not yet: back off one character
    }
  }
  return undefined;
}
