#!/usr/bin/env node
// Derives every packaged icon from ONE source image, resources/icon.png (made by make-icon.mjs):
//
//   build/icon.png            1024x1024 (electron-builder's fallback, the window icon on Linux)
//   build/icons/NxN.png       16 … 1024 (Linux: AppImage and deb install these into hicolor)
//   build/icon.ico            Windows: 16, 24, 32, 48, 64, 128, 256 (32-bit BMP with AND mask)
//   build/icon.icns           macOS: 16 … 1024 incl. the @2x variants, PNG-compressed
//
// PNG files are pngjs's, the ICO is png-to-ico's (from our resized images), the ICNS container
// (11 PNG records behind 8-byte headers) is written below. Resizing is plain JS (icons-png.mjs):
// no ImageMagick, iconutil or sharp at build time.
//
//   node scripts/icons.mjs [source.png] [out-dir]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { imagesToIco } from 'png-to-ico';
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
  write('icon.ico', imagesToIco(ICO_SIZES.map(at)));
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
