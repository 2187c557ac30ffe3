/**
 * A bounded preview of a text that may be huge (a message body, a tool result): its first
 * `maxChars` characters, then "… N KB more (M KB in all)" with sizes in UTF-8 bytes, so whoever
 * reads it sees that it was cut and how big the whole was. Text that fits is returned as is.
 */
export function previewText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let head = text.slice(0, maxChars);
  // Never end on half a surrogate pair.
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const full = Buffer.byteLength(text, 'utf8');
  const more = full - Buffer.byteLength(head, 'utf8');
  return `${detached(head)}… ${formatKb(more)} more (${formatKb(full)} in all)`;
}

/**
 * A copy of a slice that does not hold on to the text it came from: V8 makes `slice` a view into
 * its parent, so a 16 KB preview of a 500 KB message would keep all 500 KB alive for as long as
 * the preview lives — the very thing a preview is for avoiding.
 */
export function detached(slice: string): string {
  return Buffer.from(slice, 'utf8').toString('utf8');
}

/** "12 KB", "0.5 KB", "1,536 KB": kilobytes of 1,024 bytes, one decimal below 10. */
export function formatKb(bytes: number): string {
  const kb = bytes / 1024;
  return `${kb < 10 ? (Math.round(kb * 10) / 10).toString() : Math.round(kb).toLocaleString('en-US')} KB`;
}

/**
 * About how many characters `JSON.stringify(value)` would take, without building the text;
 * stops counting (and returns a number above `budget`) once past `budget`, so a huge value
 * costs only the walk of its first `budget` characters. Values are JSON (no cycles).
 */
export function jsonSizeAtMost(value: unknown, budget: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= budget) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean') size += 6;
    else if (v === null || v === undefined) size += 4;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (let i = 0; i < v.length && size <= budget; i++) stack.push(v[i]);
    } else if (typeof v === 'object') {
      size += 2;
      for (const key in v) {
        if (size > budget) break;
        size += key.length + 4;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}
