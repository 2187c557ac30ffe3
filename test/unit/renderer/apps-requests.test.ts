/**
 * What the page makes of an app's raw requests before the person sees them: partial tool
 * arguments made whole, a message's text, the files of a download and their names.
 */
import { describe, expect, it } from 'vitest';
import { parsePartialJson } from '../../../renderer/src/features/apps/partial-json';
import { downloadFiles, messageText, safeFileName, MAX_DOWNLOAD_BYTES } from '../../../renderer/src/features/apps/person-requests';

describe('partial tool arguments', () => {
  it('closes what the model left open, backing off over what cannot be completed', () => {
    expect(parsePartialJson('{"note":"hel')).toEqual({ note: 'hel' });
    expect(parsePartialJson('{"a":[1,2')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a":1,"b')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a":{"b":"c\\')).toEqual({ a: { b: 'c' } });
    expect(parsePartialJson('{"a":tr')).toEqual({});
    expect(parsePartialJson('{"done":true}')).toEqual({ done: true });
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('[1,2')).toBeUndefined();
  });

  it('gives up on text too long to reparse on every piece', () => {
    expect(parsePartialJson(`{"a":"${'x'.repeat(70_000)}`)).toBeUndefined();
  });
});

describe('an app’s message', () => {
  it('is its text blocks; other blocks are counted, not sent', () => {
    expect(messageText([{ type: 'text', text: 'one' }, { type: 'image', data: 'x' }, { type: 'text', text: 'two' }])).toEqual({ text: 'one\n\ntwo', omitted: 1 });
    expect(messageText({ type: 'text', text: ' single ' })).toEqual({ text: 'single', omitted: 0 });
  });
});

describe('an app’s download', () => {
  it('names files by the last part of their URI, safely', () => {
    expect(safeFileName('file:///reports/q4.pdf')).toBe('q4.pdf');
    expect(safeFileName('file:///a/..%2F..%2Fetc%2Fpasswd')).toBe('-..-etc-passwd');
    expect(safeFileName('file:///folder/')).toBe('folder');
    expect(safeFileName('ui://host/')).toBe('download');
    expect(safeFileName('file:///.bashrc')).toBe('bashrc');
    expect(safeFileName('file:///con%0A%22name%22.txt')).toBe('con--name-.txt');
    expect(safeFileName('')).toBe('download');
  });

  it('reads embedded text and base64 files, keeps links apart, refuses too much or nothing', async () => {
    const { files, links } = downloadFiles([
      { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
      { type: 'resource', resource: { uri: 'file:///b.bin', blob: btoa(String.fromCharCode(1, 2, 3)) } },
      { type: 'resource_link', uri: 'https://example.com/c.pdf', name: 'c' },
      { type: 'text', text: 'ignored' },
    ]);
    expect(files.map((f) => [f.name, f.mimeType, f.data.size])).toEqual([
      ['a.txt', 'text/plain', 5],
      ['b.bin', 'application/octet-stream', 3],
    ]);
    expect(await files[0]!.data.text()).toBe('hello');
    expect(links).toEqual(['https://example.com/c.pdf']);
    expect(() => downloadFiles([])).toThrow(/sent nothing Harbor can save/);
    const big = 'x'.repeat(MAX_DOWNLOAD_BYTES / 2 + 1);
    expect(() => downloadFiles([1, 2].map((i) => ({ type: 'resource', resource: { uri: `file:///${i}`, text: big } })))).toThrow(/larger than 50 MB/);
  });
});
