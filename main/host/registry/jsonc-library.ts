import { createRequire } from 'node:module';
import type * as JsoncParser from 'jsonc-parser';

/**
 * jsonc-parser, loaded the first time a text needs it: a UMD package of many files (~15–20 ms of
 * CPU to load), which a plain-JSON harbor.json — what `JSON.parse` reads — never needs (#32: every
 * one-shot command reads the registry). `require`, because reading and editing are synchronous;
 * the package's main entry is this same UMD build, which an ES import also loaded.
 */
let library: typeof JsoncParser | undefined;

export function jsoncParser(): typeof JsoncParser {
  library ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  return library;
}
