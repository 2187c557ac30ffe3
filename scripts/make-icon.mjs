#!/usr/bin/env node
// Writes resources/icon.png (512x512 RGBA): a rounded navy tile with a white "H" over a wave.
// Plain zlib + CRC32, no image tools, so the icon can be regenerated on any machine:
//   node scripts/make-icon.mjs [output.png]
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const out = process.argv[2] ?? 'resources/icon.png';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Coverage of pixel (x, y) by a rounded square, antialiased over 4x4 samples. */
function coverage(x, y, inside) {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
  return hits / 16;
}
const inTile = (x, y) => {
  const m = 24;
  const r = 96;
  const cx = Math.min(Math.max(x, m + r), SIZE - m - r);
  const cy = Math.min(Math.max(y, m + r), SIZE - m - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const inH = (x, y) =>
  (y >= 120 && y <= 330 && ((x >= 150 && x <= 200) || (x >= 312 && x <= 362))) || (y >= 200 && y <= 245 && x >= 150 && x <= 362);
const inWave = (x, y) => {
  const mid = 380 + 14 * Math.sin((x / SIZE) * Math.PI * 4);
  return x >= 110 && x <= 402 && Math.abs(y - mid) <= 11;
};

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  const row = y * (SIZE * 4 + 1);
  raw[row] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const tile = coverage(x, y, inTile);
    const mark = tile > 0 ? coverage(x, y, (px, py) => inH(px, py) || inWave(px, py)) : 0;
    // Navy to teal, top to bottom; the mark is white.
    const t = y / SIZE;
    const bg = [Math.round(18 + 10 * t), Math.round(42 + 80 * t), Math.round(92 + 60 * t)];
    const i = row + 1 + x * 4;
    for (let c = 0; c < 3; c++) raw[i + c] = Math.round(bg[c] * (1 - mark) + 255 * mark);
    raw[i + 3] = Math.round(255 * tile);
  }
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(out, png);
process.stdout.write(`${out}: ${SIZE}x${SIZE}, ${png.length} bytes\n`);
