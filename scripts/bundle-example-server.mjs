#!/usr/bin/env node
// Bundles the example server (resources/example-server/notes-server.mjs and everything it
// imports: the MCP server SDK, zod, …) into ONE self-contained ESM file:
//
//   out/example-server/notes-server.mjs
//
// Why: a packaged Harbor ships the example server beside app.asar (extraResources) and runs it
// with Electron's own Node (ELECTRON_RUN_AS_NODE=1), so a fresh machine needs no Node. A file
// outside the asar cannot resolve packages inside it, so nothing may be left to resolve: only
// Node builtins stay external. Uses rolldown (Vite 8's bundler, already installed).
//
//   node scripts/bundle-example-server.mjs [output.mjs]
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { rolldown } from 'rolldown';

const root = resolve(import.meta.dirname, '..');
const input = join(root, 'resources', 'example-server', 'notes-server.mjs');
const output = resolve(process.argv[2] ?? join(root, 'out', 'example-server', 'notes-server.mjs'));
const started = Date.now();

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

mkdirSync(dirname(output), { recursive: true });
const bundle = await rolldown({
  input,
  platform: 'node',
  // Everything but Node's own modules is inlined: the output must run from any folder.
  external: (id) => builtins.has(id),
  // The server is the entry point: keep what it does at import time (it starts serving).
  treeshake: true,
  logLevel: 'warn',
});
try {
  await bundle.write({
    file: output,
    format: 'esm',
    // One file: dynamic imports are inlined too.
    codeSplitting: false,
    sourcemap: false,
    comments: { legal: true },
  });
} finally {
  await bundle.close();
}

// A bundle that still imports a package would fail only on a machine without node_modules.
const code = readFileSync(output, 'utf8');
const bare = [
  ...code.matchAll(/^\s*import\s+(?:[^'";]*?\s*from\s*)?["']([^"']+)["']/gm),
  ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  // A require() in code (not in the code strings ajv keeps for its standalone mode).
  ...code.matchAll(/(?<![`"'\\\w.$])require\(\s*["']([^"']+)["']\s*\)/g),
]
  .map((m) => m[1])
  .filter((spec) => !spec.startsWith('.') && !spec.startsWith('/') && !builtins.has(spec));
if (bare.length > 0) {
  process.stderr.write(`bundle-example-server: the bundle still imports packages: ${[...new Set(bare)].join(', ')}\n`);
  process.exit(1);
}

const kb = (statSync(output).size / 1024).toFixed(0);
process.stdout.write(`${relative(root, output) || output}: ${kb} KiB, self-contained (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
