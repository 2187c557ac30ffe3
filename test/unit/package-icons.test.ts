/**
 * The packaged icons: one source image (resources/icon.png) → PNG set, ICO and ICNS written by
 * scripts/icons.mjs without any image tool. The containers are read back here with parsers of
 * their own (not the writer's code), every embedded image is decoded and its size checked, and
 * build/ must be exactly what the script makes from the committed source.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/** PNG's CRC-32 (ISO 3309), written here so the test builds its PNG independently of pngjs. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, encodePng, resize } from '../../scripts/icons-png.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'harbor-icons-'));

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'icons.mjs'), join(ROOT, 'resources', 'icon.png'), out], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Independent minimal PNG reader: checks the signature, IHDR and that the pixels inflate. */
function pngInfo(png: Buffer): { width: number; height: number; colourType: number; pixels: Buffer } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const chunks: Buffer[] = [];
  for (let o = 8; o < png.length; ) {
    const length = png.readUInt32BE(o);
    if (png.toString('ascii', o + 4, o + 8) === 'IDAT') chunks.push(png.subarray(o + 8, o + 8 + length));
    o += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(chunks));
  expect(pixels.length).toBe((width * 4 + 1) * height);
  return { width, height, colourType: png[25]!, pixels };
}

describe('the icon source', () => {
  it('resources/icon.png is a square 1024 RGBA image', () => {
    expect(pngInfo(readFileSync(join(ROOT, 'resources', 'icon.png')))).toMatchObject({ width: 1024, height: 1024, colourType: 6 });
  });
});

describe('scripts/icons.mjs', () => {
  it('writes the Linux PNG set at every size', () => {
    const sizes = readdirSync(join(out, 'icons')).map((f) => Number(f.split('x')[0])).sort((a, b) => a - b);
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256, 512, 1024]);
    for (const size of sizes) expect(pngInfo(readFileSync(join(out, 'icons', `${size}x${size}.png`)))).toMatchObject({ width: size, height: size });
  });

  it('writes a valid ICO: 16…256, each a 32-bit BMP with its AND mask, pixels matching the PNG set', () => {
    const ico = readFileSync(join(out, 'icon.ico'));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const entries = Array.from({ length: count }, (_, i) => {
      const e = 6 + i * 16;
      return { width: ico[e] || 256, height: ico[e + 1] || 256, planes: ico.readUInt16LE(e + 4), bpp: ico.readUInt16LE(e + 6), size: ico.readUInt32LE(e + 8), offset: ico.readUInt32LE(e + 12) };
    });
    expect(entries.map((e) => e.width)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    let end = 6 + count * 16;
    for (const entry of entries) {
      expect(entry).toMatchObject({ height: entry.width, planes: 1, bpp: 32 });
      expect(entry.offset).toBe(end); // contiguous, in order, inside the file
      end += entry.size;
      const image = ico.subarray(entry.offset, entry.offset + entry.size);
      // BITMAPINFOHEADER: 40 bytes, height doubled (XOR + AND mask), 32 bpp, uncompressed.
      expect([image.readUInt32LE(0), image.readInt32LE(4), image.readInt32LE(8), image.readUInt16LE(14), image.readUInt32LE(16)]).toEqual([40, entry.width, entry.width * 2, 32, 0]);
      const maskStride = Math.ceil(entry.width / 32) * 4;
      expect(image.length).toBe(40 + entry.width * entry.width * 4 + maskStride * entry.width);
      // The centre pixel (bottom-up BGRA) equals the same pixel of the PNG at that size.
      const png = decodePng(readFileSync(join(out, 'icons', `${entry.width}x${entry.width}.png`)));
      const x = entry.width >> 1;
      const y = entry.width >> 1;
      const bmp = 40 + ((entry.width - 1 - y) * entry.width + x) * 4;
      const p = (y * entry.width + x) * 4;
      expect([image[bmp + 2], image[bmp + 1], image[bmp], image[bmp + 3]]).toEqual([...png.data.subarray(p, p + 4)]);
    }
    expect(end).toBe(ico.length);
  });

  it('writes a valid ICNS: every record a PNG of the size its type means, lengths consistent', () => {
    const icns = readFileSync(join(out, 'icon.icns'));
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const expected: Record<string, number> = { icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };
    const seen: string[] = [];
    for (let o = 8; o < icns.length; ) {
      const type = icns.toString('ascii', o, o + 4);
      const length = icns.readUInt32BE(o + 4);
      expect(length).toBeGreaterThan(8);
      const size = expected[type];
      expect(size, `unknown ICNS type ${type}`).toBeDefined();
      expect(pngInfo(icns.subarray(o + 8, o + length))).toMatchObject({ width: size, height: size });
      seen.push(type);
      o += length;
    }
    expect(seen.sort()).toEqual(Object.keys(expected).sort());
  });

  it('build/ holds exactly what the script makes from resources/icon.png (regenerate: node scripts/icons.mjs)', () => {
    for (const file of ['icon.png', 'icon.ico', 'icon.icns', ...readdirSync(join(out, 'icons')).map((f) => join('icons', f))]) {
      expect(readFileSync(join(ROOT, 'build', file)).equals(readFileSync(join(out, file))), `build/${file} is stale`).toBe(true);
    }
  });
});

describe('scripts/icons-png.mjs', () => {
  const image = (width: number, pixels: number[][]) => ({ width, height: pixels.length / width, data: Buffer.from(pixels.flat()) });

  it('round-trips RGBA through encodePng / decodePng', () => {
    const source = image(2, [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0], [1, 2, 3, 4]]);
    const back = decodePng(encodePng(source));
    expect([back.width, back.height]).toEqual([2, 2]);
    expect([...back.data]).toEqual([...source.data]);
  });

  it('decodes every PNG row filter (Sub, Up, Average, Paeth) as other encoders write them, RGB to RGBA', () => {
    // One RGB row per filter type, filtered here by hand from known pixels.
    const width = 2;
    const rows = [[10, 20, 30, 40, 50, 60], [11, 22, 33, 44, 55, 66], [200, 100, 50, 25, 12, 6], [7, 8, 9, 250, 251, 252], [5, 5, 5, 6, 6, 6]];
    const paeth = (a: number, b: number, c: number) => {
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    };
    const raw: number[] = [];
    rows.forEach((row, y) => {
      const filter = y; // 0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth
      raw.push(filter);
      row.forEach((value, x) => {
        const a = x >= 3 ? row[x - 3]! : 0;
        const b = y > 0 ? rows[y - 1]![x]! : 0;
        const c = x >= 3 && y > 0 ? rows[y - 1]![x - 3]! : 0;
        const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]!;
        raw.push((value - predictor + 256) & 0xff);
      });
    });
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(rows.length, 4);
    header[8] = 8;
    header[9] = 2; // RGB
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const png = Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from(raw))), chunk('IEND', Buffer.alloc(0))]);
    const decoded = decodePng(png);
    expect([...decoded.data]).toEqual(rows.flatMap((row) => [row[0], row[1], row[2], 255, row[3], row[4], row[5], 255]));
  });

  it('resize averages areas in premultiplied alpha (transparent pixels do not darken edges)', () => {
    const half = resize(image(2, [[255, 255, 255, 255], [0, 0, 0, 0], [255, 255, 255, 255], [0, 0, 0, 0]]), 1);
    expect([...half.data]).toEqual([255, 255, 255, 128]);
    const grey = resize(image(2, [[0, 0, 0, 255], [255, 255, 255, 255], [255, 255, 255, 255], [0, 0, 0, 255]]), 1);
    expect([...grey.data]).toEqual([128, 128, 128, 255]);
    // A fractional factor (3 → 2) still covers every source pixel exactly once in total weight.
    const three = image(3, Array.from({ length: 9 }, () => [90, 90, 90, 255]));
    expect([...resize(three, 2).data]).toEqual(Array.from({ length: 4 }, () => [90, 90, 90, 255]).flat());
    expect(() => resize(three, 4)).toThrow(/cannot upscale/);
  });
});
