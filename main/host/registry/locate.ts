/**
 * Finds where a JSON path points in the raw text, so a problem in the registry can be shown at
 * the right line of the editor. A small position-tracking walk over the text (which is already
 * known to parse): it returns the 1-based line of the value at `path`, or of its nearest parent.
 */
export function lineOfPath(text: string, path: readonly PropertyKey[]): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const skipString = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const readString = (): string => {
    const start = i;
    skipString();
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Walks one value; when depth reaches the end of the path, returns its line.
  const walk = (depth: number): number | undefined => {
    ws();
    const here = lineAt(i);
    if (depth === path.length) return here;
    const want = path[depth];
    if (text[i] === '{') {
      i++;
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return undefined;
        }
        const key = readString();
        ws();
        i++; // colon
        if (key === String(want)) return walk(depth + 1) ?? here;
        skipValue();
        ws();
        if (text[i] === ',') i++;
      }
    }
    if (text[i] === '[') {
      i++;
      let index = 0;
      for (;;) {
        ws();
        if (text[i] === ']') {
          i++;
          return undefined;
        }
        if (index === want) return walk(depth + 1) ?? here;
        skipValue();
        index++;
        ws();
        if (text[i] === ',') i++;
      }
    }
    return here;
  };
  const skipValue = () => {
    ws();
    const c = text[i];
    if (c === '"') return skipString();
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      for (;;) {
        ws();
        if (text[i] === close) {
          i++;
          return;
        }
        if (c === '{') {
          skipString();
          ws();
          i++;
        }
        skipValue();
        ws();
        if (text[i] === ',') i++;
      }
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  };
  try {
    return walk(0);
  } catch {
    return undefined;
  }
}

/** The 1-based line of a JSON.parse error's "position N", when the message has one. */
export function lineOfParseError(text: string, message: string): number | undefined {
  const m = /position (\d+)/.exec(message) ?? /line (\d+)/.exec(message);
  if (!m) return undefined;
  if (message.includes('position')) return text.slice(0, Number(m[1])).split('\n').length;
  return Number(m[1]);
}
