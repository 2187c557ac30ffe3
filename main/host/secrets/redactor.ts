import { HarborError } from '../errors';

/** Shorter values are not masked: masking "abc" everywhere would garble unrelated text. */
export const MIN_MASKED_LENGTH = 4;

export const MASK = '***';

/** `"authorization": "…"` in JSON (a header object in a traffic entry). */
const AUTH_JSON = /("(?:authorization|proxy-authorization)"\s*:\s*")[^"]*(")/gi;
/** `Bearer abc…`, `Basic abc…` anywhere. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g;
/** `Authorization: Bearer abc`, `proxy-authorization=abc` in plain text lines (stderr, logs). */
const AUTH_LINE = /\b((?:proxy-)?authorization)(\s*[:=]\s*)(?!\*\*\*)(?:(bearer|basic|token|digest)\s+)?[^\s",;]+/gi;

/** Base64 pieces shorter than this are not masked: they could occur in unrelated base64 by chance. */
const MIN_BASE64_FORM_LENGTH = 8;

/**
 * The value's base64 (and base64url) as it appears inside any longer base64 text: `Basic
 * base64(user:token)` puts the token at some byte offset, and its characters depend on that offset
 * modulo 3. For each of the three offsets, the characters that only the value's bytes determine.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const piece = encoded.slice(Math.ceil((offset * 4) / 3), Math.floor(((offset + bytes.length) * 8) / 6));
    if (piece.length >= MIN_BASE64_FORM_LENGTH) forms.push(piece, piece.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

const hexAnyCase = (byte: number) =>
  byte
    .toString(16)
    .padStart(2, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A pattern for the value URL-encoded by any encoder: each character as itself or percent-encoded
 * (its UTF-8 bytes, hex in either case), a space also as "+" (form encoding). encodeURIComponent,
 * encodeURI, URLSearchParams and Python's quote_plus differ in what they encode; this matches them all.
 */
function urlEncodedPattern(value: string): string {
  return Array.from(value, (char) => {
    const options = [escapeRegExp(char), [...Buffer.from(char, 'utf8')].map((byte) => `%${hexAnyCase(byte)}`).join('')];
    if (char === ' ') options.push('\\+');
    return `(?:${options.join('|')})`;
  }).join('');
}

/**
 * The one place Harbor masks secrets, owned by the Host and handed to everything that writes or
 * shows text: the traffic log, stderr tails, error messages, tool results, the CLI's output. It
 * knows the value of every secret Harbor resolved in this process (added at resolve time, before
 * the server that gets it starts) in the forms a server may echo it back: raw, JSON-escaped,
 * base64 (alone or inside a longer base64 text, standard and URL-safe) and URL-encoded (any
 * percent-encoding, "+" for spaces).
 */
export class Redactor {
  private readonly known = new Set<string>();
  /** Every masked form, longest first (a secret containing another is masked whole). */
  private forms: string[] = [];
  /** Every value URL-encoded any way, longest value first; undefined while none is known. */
  private urlEncoded: RegExp | undefined;

  /** Remembers a resolved value; later text holding it is masked. */
  add(value: string): void {
    if (value.length < MIN_MASKED_LENGTH || this.known.has(value)) return;
    this.known.add(value);
    const forms = new Set(this.forms);
    for (const form of [value, JSON.stringify(value).slice(1, -1), ...base64Forms(value)]) {
      if (form.length >= MIN_MASKED_LENGTH) forms.add(form);
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
    const byLength = [...this.known].sort((a, b) => b.length - a.length);
    this.urlEncoded = new RegExp(byLength.map(urlEncodedPattern).join('|'), 'g');
  }

  /** How many distinct values are known (tests, diagnostics). */
  get size(): number {
    return this.known.size;
  }

  /**
   * For logs, stderr tails and error messages: known values, plus anything that looks like
   * credentials (`"authorization": "…"`, `Bearer …`, `Authorization: …`).
   */
  redact(text: string): string {
    if (!text) return text;
    return this.mask(text)
      .replace(AUTH_JSON, `$1${MASK}$2`)
      .replace(AUTH_SCHEME, `$1 ${MASK}`)
      .replace(AUTH_LINE, (_m, key: string, sep: string, scheme: string | undefined) => `${key}${sep}${scheme ? `${scheme} ` : ''}${MASK}`);
  }

  /** For content a person reads (tool results, resources): known values only, so prose stays intact. */
  mask(text: string): string {
    if (!text || this.forms.length === 0) return text;
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(MASK);
    // Only text with a "%" or "+" can hold an encoded form the exact forms above did not catch.
    if (this.urlEncoded && /[%+]/.test(out)) out = out.replace(this.urlEncoded, MASK);
    return out;
  }

  /**
   * `mask` applied to every string in a JSON-like value (a tool result, a catalog). Returns the
   * same object when nothing changed. Base64 payloads (`data` of image/audio blocks, `blob`) are
   * left alone: a short secret could occur in them by chance, and masking would corrupt them.
   */
  maskDeep<T>(value: T): T {
    if (this.forms.length === 0) return value;
    return this.walk(value, (s) => this.mask(s)) as T;
  }

  /** `redact` applied to every string in a JSON-like value (server summaries, error states). */
  redactDeep<T>(value: T): T {
    return this.walk(value, (s) => this.redact(s)) as T;
  }

  /** The same error with its message and detail redacted (a server's text can echo a secret). */
  redactError(error: unknown): unknown {
    if (error instanceof HarborError) {
      const message = this.redact(error.message);
      const detail = error.detail === undefined ? undefined : this.redact(error.detail);
      if (message === error.message && detail === error.detail) return error;
      return new HarborError(error.code, message, detail, { cause: error, ...(error.changed ? { changed: error.changed } : {}) });
    }
    if (error instanceof Error) {
      const message = this.redact(error.message);
      return message === error.message ? error : new Error(message, { cause: error });
    }
    return typeof error === 'string' ? this.redact(error) : error;
  }

  private walk(value: unknown, fix: (s: string) => string): unknown {
    if (typeof value === 'string') return fix(value);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const next = this.walk(item, fix);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : value;
    }
    if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
      const record = value as Record<string, unknown>;
      const binary = record.type === 'image' || record.type === 'audio';
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(record)) {
        const next = (binary && key === 'data') || key === 'blob' ? item : this.walk(item, fix);
        if (next !== item) changed = true;
        out[key] = next;
      }
      return changed ? out : value;
    }
    return value;
  }
}
