import { describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { Redactor } from '../../main/host/secrets/redactor';

describe('Redactor', () => {
  it('masks a known value raw, JSON-escaped and URL-encoded, and ignores values too short to mask', () => {
    const r = new Redactor();
    const tricky = 'pa"ss\\wörd 42';
    r.add(tricky);
    r.add('abc');
    expect(r.size).toBe(1);
    expect(r.redact(`raw ${tricky} end`)).toBe('raw *** end');
    expect(r.redact(JSON.stringify({ text: tricky }))).toBe('{"text":"***"}');
    expect(r.mask(`https://x.test/?q=${encodeURIComponent(tricky)}`)).toBe('https://x.test/?q=***');
    expect(r.mask('abc stays abc')).toBe('abc stays abc');
  });

  it('masks the longer of two overlapping secrets whole', () => {
    const r = new Redactor();
    r.add('token-1234');
    r.add('token-1234-extended');
    expect(r.mask('a token-1234-extended b token-1234 c')).toBe('a *** b *** c');
  });

  it('redact also masks credentials it was never told about; mask leaves prose alone', () => {
    const r = new Redactor();
    expect(r.redact('{"Authorization":"Bearer abcdef123456","x":1}')).toBe('{"Authorization":"***","x":1}');
    expect(r.redact('sending Authorization: token ghp_abcdef for call')).toBe('sending Authorization: token *** for call');
    expect(r.redact('curl -H "x" Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe('curl -H "x" Bearer ***');
    expect(r.mask('Basic settings: Bearer tokens expire')).toBe('Basic settings: Bearer tokens expire');
  });

  it('maskDeep masks every string of a tool result, keeps base64 payloads, and returns unchanged input as is', () => {
    const r = new Redactor();
    const untouched = { content: [{ type: 'text', text: 'nothing here' }] };
    expect(r.maskDeep(untouched)).toBe(untouched); // no secrets known yet
    r.add('s3cret-value');
    expect(r.maskDeep(untouched)).toBe(untouched);
    const result = {
      content: [
        { type: 'text', text: 'token is s3cret-value' },
        { type: 'image', mimeType: 'image/png', data: 'AAAAs3cret-valueAAAA' },
      ],
      structuredContent: { nested: ['s3cret-value', 7, null, { deeper: 'x s3cret-value' }] },
      isError: false,
    };
    expect(r.maskDeep(result)).toEqual({
      content: [
        { type: 'text', text: 'token is ***' },
        { type: 'image', mimeType: 'image/png', data: 'AAAAs3cret-valueAAAA' },
      ],
      structuredContent: { nested: ['***', 7, null, { deeper: 'x ***' }] },
      isError: false,
    });
    expect(result.content[0]!.text).toBe('token is s3cret-value'); // the input is not mutated
  });

  it('redactError keeps the code and masks message and detail', () => {
    const r = new Redactor();
    r.add('s3cret-value');
    const error = r.redactError(new HarborError('CONNECTION_CLOSED', 'died: s3cret-value', 'stderr: s3cret-value\n'));
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).toData()).toEqual({ code: 'CONNECTION_CLOSED', message: 'died: ***', detail: 'stderr: ***\n' });
    const clean = new HarborError('TIMEOUT', 'slow');
    expect(r.redactError(clean)).toBe(clean);
    expect((r.redactError(new Error('x s3cret-value')) as Error).message).toBe('x ***');
  });
});
