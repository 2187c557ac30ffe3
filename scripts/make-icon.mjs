#!/usr/bin/env node
// Writes THE source image of every Harbor icon, resources/icon.png (1024x1024 RGBA): a rounded
// navy tile with a white "H" over a wave, drawn procedurally (antialiased over 4x4 samples).
// scripts/icons.mjs derives the png set, icon.ico and icon.icns in build/ from this one file.
//   node scripts/make-icon.mjs [output.png] [size]
import { writeFileSync } from 'node:fs';
import { encodePng } from './icons-png.mjs';

const out = process.argv[2] ?? 'resources/icon.png';
const SIZE = Number(process.argv[3] ?? 1024);
/** The drawing is specified on a 512 grid and scaled. */
const k = SIZE / 512;

/** Coverage of pixel (x, y) by a shape, antialiased over 4x4 samples. */
function coverage(x, y, inside) {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside((x + (sx + 0.5) / 4) / k, (y + (sy + 0.5) / 4) / k)) hits++;
  return hits / 16;
}
const inTile = (x, y) => {
  const m = 24;
  const r = 96;
  const cx = Math.min(Math.max(x, m + r), 512 - m - r);
  const cy = Math.min(Math.max(y, m + r), 512 - m - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const inH = (x, y) =>
  (y >= 120 && y <= 330 && ((x >= 150 && x <= 200) || (x >= 312 && x <= 362))) || (y >= 200 && y <= 245 && x >= 150 && x <= 362);
const inWave = (x, y) => {
  const mid = 380 + 14 * Math.sin((x / 512) * Math.PI * 4);
  return x >= 110 && x <= 402 && Math.abs(y - mid) <= 11;
};

const data = Buffer.alloc(SIZE * SIZE * 4);
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const tile = coverage(x, y, inTile);
    const mark = tile > 0 ? coverage(x, y, (px, py) => inH(px, py) || inWave(px, py)) : 0;
    // Navy to teal, top to bottom; the mark is white.
    const t = y / SIZE;
    const bg = [Math.round(18 + 10 * t), Math.round(42 + 80 * t), Math.round(92 + 60 * t)];
    const i = (y * SIZE + x) * 4;
    for (let c = 0; c < 3; c++) data[i + c] = Math.round(bg[c] * (1 - mark) + 255 * mark);
    data[i + 3] = Math.round(255 * tile);
  }
}

const png = encodePng({ width: SIZE, height: SIZE, data });
writeFileSync(out, png);
process.stdout.write(`${out}: ${SIZE}x${SIZE}, ${png.length} bytes\n`);
