// Types for icons-png.mjs (the icon scripts are plain Node ESM; the tests import them).
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** width * height * 4 bytes, rows top to bottom. */
  readonly data: Buffer;
}
export function encodePng(image: RgbaImage): Buffer;
export function decodePng(png: Buffer): RgbaImage;
export function resize(image: RgbaImage, size: number): RgbaImage;
