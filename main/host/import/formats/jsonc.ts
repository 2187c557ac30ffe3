/**
 * VS Code's and Cursor's mcp.json are JSON with comments (and VS Code accepts trailing commas).
 * Comments and trailing commas are blanked out with spaces — newlines kept — so JSON.parse's
 * "line 4 column 7" still points at the right place in the person's file.
 */
export function stripJsonComments(text: string): string {
  const out = text.replace(/^\uFEFF/, ' ').split('');
  let i = 0;
  let lastSignificant = -1; // index of the last char that is not whitespace or comment
  while (i < out.length) {
    const c = out[i];
    if (c === '"') {
      i = skipString(out, i);
      lastSignificant = i - 1;
      continue;
    }
    if (c === '/' && out[i + 1] === '/') {
      while (i < out.length && out[i] !== '\n' && out[i] !== '\r') out[i++] = ' ';
      continue;
    }
    if (c === '/' && out[i + 1] === '*') {
      const end = findBlockEnd(out, i + 2);
      for (let j = i; j < end; j++) if (out[j] !== '\n' && out[j] !== '\r') out[j] = ' ';
      i = end;
      continue;
    }
    if ((c === '}' || c === ']') && lastSignificant >= 0 && out[lastSignificant] === ',') out[lastSignificant] = ' ';
    if (c !== undefined && !/\s/.test(c)) lastSignificant = i;
    i++;
  }
  return out.join('');
}

/** Index just past the closing quote (or the end of text for an unterminated string). */
function skipString(chars: string[], start: number): number {
  let i = start + 1;
  while (i < chars.length) {
    if (chars[i] === '\\') i += 2;
    else if (chars[i] === '"') return i + 1;
    else i++;
  }
  return i;
}

function findBlockEnd(chars: string[], from: number): number {
  for (let i = from; i < chars.length - 1; i++) if (chars[i] === '*' && chars[i + 1] === '/') return i + 2;
  return chars.length;
}
