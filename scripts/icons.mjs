#!/usr/bin/env node
// Derives every packaged icon from ONE source image, resources/icon.png (made by make-icon.mjs):
//
//   build/icon.png            1024x1024 (electron-builder's fallback, the window icon on Linux)
//   build/icons/NxN.png       16 … 1024 (Linux: AppImage and deb install these into hicolor)
//   build/icon.ico            Windows: 16, 24, 32, 48, 64, 128 (32-bit BMP) and 256 (PNG)
//   build/icon.icns           macOS: 16 … 1024 incl. the @2x variants, PNG-compressed
//
// Both containers are written here from PNG data, resized in plain JS (icons-png.mjs): no
// ImageMagick, iconutil or png2icons at build time.
//
//   node scripts/icons.mjs [source.png] [out-dir]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodePng, encodePng, resize } from './icons-png.mjs';

/** Linux hicolor sizes. */
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Windows shell sizes (Explorer, taskbar, Start, installer). */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** macOS OSTypes and the pixel size each holds (the ic11–ic14 and ic10 types are @2x). */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['ic11', 32],
  ['icp5', 32],
  ['ic12', 64],
  ['icp6', 64],
  ['ic07', 128],
  ['ic13', 256],
  ['ic08', 256],
  ['ic14', 512],
  ['ic09', 512],
  ['ic10', 1024],
];

/**
 * A 32-bit BMP (DIB) icon image: BITMAPINFOHEADER, BGRA rows bottom-up, then the 1-bit AND
 * mask (all zero: the alpha channel decides). Small sizes stay BMP: NSIS and old shell code
 * paths read only BMP entries reliably; 256 is PNG, as Windows expects.
 */
function icoBitmap({ width, height, data }) {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8); // XOR image + AND mask
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  header.writeUInt32LE(0, 16); // BI_RGB
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      const to = ((height - 1 - y) * width + x) * 4;
      pixels[to] = data[from + 2];
      pixels[to + 1] = data[from + 1];
      pixels[to + 2] = data[from];
      pixels[to + 3] = data[from + 3];
    }
  }
  const maskStride = Math.ceil(width / 32) * 4;
  header.writeUInt32LE(pixels.length + maskStride * height, 20);
  return Buffer.concat([header, pixels, Buffer.alloc(maskStride * height)]);
}

/** The ICO container: ICONDIR, one 16-byte ICONDIRENTRY per image, then the images. */
export function buildIco(images) {
  const dir = Buffer.alloc(6);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(images.length, 4);
  const blobs = images.map((image) => (image.width >= 256 ? encodePng(image) : icoBitmap(image)));
  let offset = 6 + 16 * images.length;
  const entries = images.map((image, i) => {
    const entry = Buffer.alloc(16);
    entry[0] = image.width >= 256 ? 0 : image.width; // 0 means 256
    entry[1] = image.height >= 256 ? 0 : image.height;
    entry[2] = 0; // no palette
    entry[3] = 0;
    entry.writeUInt16LE(1, 4); // planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(blobs[i].length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += blobs[i].length;
    return entry;
  });
  return Buffer.concat([dir, ...entries, ...blobs]);
}

/** The ICNS container: 'icns' + total length, then (OSType, length incl. header, PNG) records. */
export function buildIcns(records) {
  const parts = records.map(({ type, png }) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([header, body]);
}

/** Writes the whole icon set; returns what it wrote (paths relative to outDir). */
export function makeIcons(sourcePath, outDir) {
  const source = decodePng(readFileSync(sourcePath));
  if (source.width !== source.height || source.width < 1024) {
    throw new Error(`${sourcePath} is ${source.width}x${source.height}: the source icon must be square and at least 1024x1024 (node scripts/make-icon.mjs)`);
  }
  const cache = new Map();
  const at = (size) => {
    if (!cache.has(size)) cache.set(size, size === source.width ? source : resize(source, size));
    return cache.get(size);
  };
  const pngs = new Map();
  const pngAt = (size) => {
    if (!pngs.has(size)) pngs.set(size, encodePng(at(size)));
    return pngs.get(size);
  };
  mkdirSync(join(outDir, 'icons'), { recursive: true });
  const written = [];
  const write = (name, bytes) => {
    writeFileSync(join(outDir, name), bytes);
    written.push(`${name} (${bytes.length} bytes)`);
  };
  for (const size of PNG_SIZES) write(join('icons', `${size}x${size}.png`), pngAt(size));
  write('icon.png', pngAt(1024));
  write('icon.ico', buildIco(ICO_SIZES.map(at)));
  write('icon.icns', buildIcns(ICNS_TYPES.map(([type, size]) => ({ type, png: pngAt(size) }))));
  return written;
}

if (resolve(process.argv[1] ?? "") === import.meta.filename) {
  const root = resolve(import.meta.dirname, '..');
  const source = resolve(process.argv[2] ?? join(root, 'resources', 'icon.png'));
  const outDir = resolve(process.argv[3] ?? join(root, 'build'));
  const started = Date.now();
  const written = makeIcons(source, outDir);
  process.stdout.write(`${written.map((w) => `  ${w}`).join('\n')}\nicons: ${written.length} files in ${outDir} from ${source} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
