import { describe, expect, it } from 'vitest';
import { translateToolResult } from '../../main/host/tools/results';

const PNG = Buffer.from('fake png bytes').toString('base64');
const opts = { imageParts: false, capBytes: 100_000 };

describe('tool results for the model', () => {
  it('passes text as is and joins blocks', () => {
    const r = translateToolResult({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }, opts);
    expect(r.output).toEqual({ type: 'text', value: 'one\ntwo' });
    expect(r.truncatedBytes).toBe(0);
  });

  it('gives resource links as references and embedded resources by their text', () => {
    const r = translateToolResult(
      {
        content: [
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
          { type: 'resource', resource: { uri: 'mem://note', text: 'note body' } },
          { type: 'resource', resource: { uri: 'mem://bin', mimeType: 'application/octet-stream', blob: PNG } },
        ],
      },
      opts,
    );
    expect(r.output).toEqual({
      type: 'text',
      value: '[resource link: file:///a.txt ("a.txt", text/plain)]\n[resource mem://note]\nnote body\n[resource mem://bin: application/octet-stream, 14 bytes: not shown to this model]',
    });
  });

  it('sends images as image parts when the provider takes them, else a placeholder', () => {
    const result = { content: [{ type: 'text' as const, text: 'look:' }, { type: 'image' as const, data: PNG, mimeType: 'image/png' }] };
    expect(translateToolResult(result, { ...opts, imageParts: true }).output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'look:' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
      ],
    });
    expect(translateToolResult(result, opts).output).toEqual({ type: 'text', value: 'look:\n[image image/png, 14 bytes: not shown to this model]' });
  });

  it('maps isError to the provider\'s error flag', () => {
    expect(translateToolResult({ content: [{ type: 'text', text: 'boom' }], isError: true }, opts).output).toEqual({ type: 'error-text', value: 'boom' });
  });

  it('uses structuredContent when there is no content', () => {
    expect(translateToolResult({ content: [], structuredContent: { sum: 5 } }, opts).output).toEqual({ type: 'text', value: '{"sum":5}' });
    expect(translateToolResult({ content: [] }, opts).output).toEqual({ type: 'text', value: '(the tool returned no content)' });
  });

  it('cuts large results at the cap with a note saying how much was cut', () => {
    const r = translateToolResult({ content: [{ type: 'text', text: 'a'.repeat(300) }, { type: 'text', text: 'b'.repeat(300) }] }, { ...opts, capBytes: 400 });
    expect(r.totalBytes).toBe(600);
    expect(r.truncatedBytes).toBe(200);
    const value = (r.output as { value: string }).value;
    expect(value.startsWith(`${'a'.repeat(300)}\n${'b'.repeat(100)}\n`)).toBe(true);
    expect(value).toMatch(/truncated — 200 of 600 bytes were cut \(limit 400\)/);
  });

  it('never splits a multi-byte character when cutting', () => {
    const r = translateToolResult({ content: [{ type: 'text', text: 'é'.repeat(10) }] }, { ...opts, capBytes: 5 });
    expect((r.output as { value: string }).value.startsWith('éé\n')).toBe(true);
    expect(r.truncatedBytes).toBe(16);
  });

  it('leaves an image out, with a note, when it does not fit', () => {
    const r = translateToolResult({ content: [{ type: 'image', data: 'A'.repeat(1000), mimeType: 'image/png' }] }, { imageParts: true, capBytes: 100 });
    expect(r.output).toMatchObject({ type: 'text' });
    expect((r.output as { value: string }).value).toMatch(/left out, the result was too large[\s\S]*1000 of 1000 bytes were cut/);
  });
});
