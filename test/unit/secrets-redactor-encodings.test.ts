/**
 * The redactor masks a secret in the other forms a server or a URL may carry it: base64 (alone,
 * URL-safe, or inside a longer base64 text such as `Basic base64(user:token)` at any byte offset)
 * and URL-encoded by any encoder (encodeURIComponent, encodeURI, form encoding with "+" for
 * spaces, lower-case hex), while unrelated text stays as it is.
 */
import { describe, expect, it } from 'vitest';
import { MASK, Redactor } from '../../main/host/secrets/redactor';

const TOKEN = 'ghp_Tok3n/with+odd chars&=ü?';

function redactorWith(...values: string[]): Redactor {
  const r = new Redactor();
  for (const value of values) r.add(value);
  return r;
}

/** Whether no piece of the value's encodings longer than a few characters is left in `text`. */
function leaks(text: string, value: string): boolean {
  const b64 = Buffer.from(value).toString('base64');
  return text.includes(value) || text.includes(b64.slice(2, 10)) || text.includes(encodeURIComponent(value).slice(3, 12));
}

describe('Redactor: base64 forms', () => {
  it('masks the value base64-encoded, standard and URL-safe, padded or not', () => {
    const r = redactorWith(TOKEN);
    for (const encoded of [Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('base64url')]) {
      const out = r.mask(`echo ${encoded} end`);
      expect(out, encoded).toMatch(/^echo \S*\*\*\*\S* end$/);
      expect(leaks(out, TOKEN)).toBe(false);
    }
  });

  it.each([0, 1, 2, 3, 4, 5])('masks it inside a longer base64 text at byte offset %i (Basic auth, a JWT claim, a data URL)', (offset) => {
    const r = redactorWith(TOKEN);
    const prefix = 'u'.repeat(offset);
    const basic = Buffer.from(`${prefix}:${TOKEN}:suffix`).toString('base64');
    const out = r.redact(`sent header X-Auth: ${basic}`);
    expect(out).toContain(MASK);
    expect(out.length).toBeLessThan(`sent header X-Auth: ${basic}`.length);
    // What remains cannot be decoded back to the token.
    expect(Buffer.from(out.replace('sent header X-Auth: ', '').replace(MASK, ''), 'base64').toString('latin1')).not.toContain(TOKEN.slice(4, 12));
    expect(r.mask(`Authorization: Basic ${Buffer.from(`me:${TOKEN}`).toString('base64')}`)).toContain(MASK);
  });

  it('leaves other base64 alone, and does not mask base64 pieces of very short values', () => {
    const r = redactorWith(TOKEN, 'abcd');
    const other = Buffer.from('nothing secret in here at all').toString('base64');
    expect(r.mask(other)).toBe(other);
    expect(r.mask(Buffer.from('abcd').toString('base64'))).toBe('YWJjZA==');
  });
});

describe('Redactor: URL-encoded forms', () => {
  it.each([
    ['encodeURIComponent', encodeURIComponent(TOKEN)],
    ['encodeURI', encodeURI(TOKEN)],
    ['form encoding (URLSearchParams, "+" for spaces)', new URLSearchParams({ t: TOKEN }).toString().slice(2)],
    ['lower-case hex', encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['every byte encoded', [...Buffer.from(TOKEN)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')],
  ])('masks it %s', (_how, encoded) => {
    const r = redactorWith(TOKEN);
    expect(r.mask(`https://evil.example/collect?q=${encoded}&x=1`)).toBe('https://evil.example/collect?q=***&x=1');
    expect(r.redact(`GET /collect?q=${encoded} HTTP/1.1`)).toBe('GET /collect?q=*** HTTP/1.1');
  });

  it('masks the longer of two secrets whole in encoded form too, and leaves unrelated encoded text alone', () => {
    const r = redactorWith('my token', 'my token is longer');
    expect(r.mask('a=my+token+is+longer&b=my%20token')).toBe('a=***&b=***');
    expect(r.mask('q=hello+world%21&r=100%25')).toBe('q=hello+world%21&r=100%25');
  });
});
