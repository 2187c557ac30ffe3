// Types for icons.mjs (the icon scripts are plain Node ESM; the tests import them).
export const PNG_SIZES: readonly number[];
export const ICO_SIZES: readonly number[];
export const ICNS_TYPES: ReadonlyArray<readonly [string, number]>;
export function buildIcns(records: ReadonlyArray<{ type: string; png: Buffer }>): Buffer;
/** Writes the icon set from `sourcePath` into `outDir`; returns what it wrote. */
export function makeIcons(sourcePath: string, outDir: string): string[];
