/** Files the person attaches from their computer: what is taken, what is refused and why, and how the model gets them. */
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { FILE_LIMITS, fileKind, FileUploads } from '../../preload/contract';
import { fitHistoryToModel, isFilePart, prepareFiles } from '../../main/host/chat/files';
import { PNG_1X1 } from '../fixtures/files/images';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe('fileKind', () => {
  it('takes the four raster image types as images, text and unknown types as text, known binaries not at all', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'IMAGE/WEBP'].map(fileKind)).toEqual(['image', 'image', 'image', 'image']);
    expect(['text/plain', 'application/json', 'text/markdown; charset=utf-8', '', 'image/svg+xml'].map(fileKind)).toEqual(['text', 'text', 'text', 'text', 'text']);
    expect(['application/pdf', 'application/zip', 'audio/mpeg', 'image/heic', 'application/vnd.ms-excel', 'application/octet-stream'].map(fileKind)).toEqual(
      Array(6).fill('refused'),
    );
  });
});

describe('prepareFiles', () => {
  it('makes an image an image part after a line naming it, and keeps its preview for the conversation', () => {
    const prepared = prepareFiles([{ name: 'dot.png', mimeType: 'image/png', data: PNG_1X1, thumbnail: `data:image/png;base64,${PNG_1X1}` }]);
    expect(prepared.hasImages).toBe(true);
    expect(prepared.parts).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[harbor:file \{"name":"dot.png","mimeType":"image\/png","bytes":\d+\}\]\nThe person attached the image "dot.png"\.$/) },
      { type: 'file', data: PNG_1X1, mediaType: 'image/png' },
    ]);
    expect(prepared.files).toEqual([{ name: 'dot.png', kind: 'image', mimeType: 'image/png', bytes: Buffer.from(PNG_1X1, 'base64').length, thumbnail: `data:image/png;base64,${PNG_1X1}` }]);
    expect(isFilePart((prepared.parts[0] as { text: string }).text)).toBe(true);
  });

  it('gives a text file to the model as text, cut at the attachment cap', () => {
    const long = 'x'.repeat(100_010);
    const prepared = prepareFiles([
      { name: 'notes.md', mimeType: 'text/markdown', data: b64('# Notes\nbuy milk') },
      { name: 'long.txt', mimeType: '', data: b64(long) },
    ]);
    expect(prepared.hasImages).toBe(false);
    expect(prepared.parts[0]).toEqual({ type: 'text', text: expect.stringContaining('The person attached the file "notes.md" (its content follows):\n# Notes\nbuy milk') });
    expect((prepared.parts[1] as { text: string }).text).toContain('[… cut: the file has 100010 characters, the first 100000 are attached]');
    expect(prepared.files.map((f) => [f.name, f.kind, f.mimeType, f.chars])).toEqual([
      ['notes.md', 'text', 'text/markdown', 16],
      ['long.txt', 'text', 'text/plain', 100_000],
    ]);
  });

  it('refuses, naming the file and why: a PDF, bytes that are not UTF-8, binary text, an image that is not what it says, sizes', () => {
    const refusal = (files: Parameters<typeof prepareFiles>[0]) => {
      try {
        prepareFiles(files);
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error('expected a refusal');
    };
    expect(refusal([{ name: 'report.pdf', mimeType: 'application/pdf', data: b64('%PDF-1.7') }])).toEqual(
      expect.objectContaining({ code: 'BAD_REQUEST', message: 'Cannot attach "report.pdf": Harbor attaches images (PNG, JPEG, GIF, WebP) and text files, and this is application/pdf.' }),
    );
    expect(refusal([{ name: 'latin1.txt', mimeType: 'text/plain', data: b64(Buffer.from([0x63, 0x61, 0x66, 0xe9])) }]).message).toBe(
      'Cannot attach "latin1.txt": it is not UTF-8 text. Harbor attaches images (PNG, JPEG, GIF, WebP) and text files.',
    );
    expect(refusal([{ name: 'a.out', mimeType: '', data: b64('ELF\u0000\u0001') }]).message).toContain('it is binary, not text');
    expect(refusal([{ name: 'fake.png', mimeType: 'image/png', data: b64('GIF89a') }]).message).toBe('Cannot attach "fake.png": it is not the image/png image it says it is.');
    const big = Buffer.alloc(FILE_LIMITS.maxImageBytes + 1);
    Buffer.from(PNG_1X1, 'base64').copy(big);
    expect(refusal([{ name: 'huge.png', mimeType: 'image/png', data: big.toString('base64') }]).message).toMatch(/^Cannot attach "huge.png": images may be up to 3.8 MB, and this one is 3.8 MB\.$/);
    expect(refusal([{ name: 'big.txt', mimeType: 'text/plain', data: b64('a'.repeat(FILE_LIMITS.maxTextBytes + 1)) }]).message).toContain('text files may be up to 0.51 MB');
  });

  it('the contract caps count and total size before anything reaches the Host', () => {
    const file = { name: 'a.txt', mimeType: 'text/plain', data: b64('a') };
    expect(FileUploads.safeParse(Array(FILE_LIMITS.maxFiles).fill(file)).success).toBe(true);
    expect(FileUploads.safeParse(Array(FILE_LIMITS.maxFiles + 1).fill(file)).success).toBe(false);
    const image = { name: 'i.png', mimeType: 'image/png', data: 'A'.repeat(4_000_000) };
    expect(FileUploads.safeParse([image, image, image]).error?.issues[0]?.message).toBe('the files of one message may not exceed 8 MB together');
    expect(FileUploads.safeParse([{ ...file, thumbnail: 'https://tracker.example/p.png' }]).success).toBe(false);
    expect(FileUploads.safeParse([{ ...file, data: 'not base64!' }]).success).toBe(false);
  });
});

describe('fitHistoryToModel', () => {
  const history: ModelMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'file', data: PNG_1X1, mediaType: 'image/png' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'a dot' }] },
  ];

  it('a model that takes images gets them; one that does not gets a line saying the image was not sent', () => {
    expect(fitHistoryToModel(history, true)).toEqual(history);
    expect(fitHistoryToModel(history, false)[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'text', text: '[The image is not sent: this model does not take images.]' },
      ],
    });
    expect(fitHistoryToModel(history, false)[1]).toBe(history[1]);
  });
});
