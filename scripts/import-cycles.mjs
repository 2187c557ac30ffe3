// Import cycles among the project's own files (main/, preload/, renderer/src/): a cycle makes
// module order decide what is defined when, and a command table that imports the commands it
// loads. Static and dynamic imports count; `import type` / `export type` do not (they vanish).
// Used by the `harbor/no-import-cycle` lint rule (eslint.config.js); `node scripts/import-cycles.mjs` lists them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];
const IMPORT = /(?:^|[;\s])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function resolveFile(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, ...EXTENSIONS.map((e) => base.replace(/\.js$/, '') + e)]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const edgesCache = new Map();
/** The files `file` imports at run time (relative specifiers only). */
export function importsOf(file, source) {
  let edges = source === undefined ? edgesCache.get(file) : undefined;
  if (edges) return edges;
  edges = [];
  const text = (source ?? readFileSync(file, 'utf8')).replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
  for (const match of text.matchAll(IMPORT)) {
    const target = resolveFile(file, match[1] ?? match[2]);
    if (target && !target.includes(`${'/'}node_modules${'/'}`)) edges.push(target);
  }
  if (source === undefined) edgesCache.set(file, edges);
  return edges;
}

/**
 * A cycle through `file` (the files in order, starting and ending with it), or undefined. `source`
 * is the file's text as the linter sees it (the rest is read from disk).
 */
export function cycleThrough(file, source) {
  const seen = new Set();
  const path = [file];
  const visit = (current) => {
    for (const next of importsOf(current, current === file ? source : undefined)) {
      if (next === file) return [...path, file];
      if (seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      const found = visit(next);
      if (found) return found;
      path.pop();
    }
    return undefined;
  };
  return visit(file);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const files = process.argv.slice(2).map((f) => resolve(f));
  let found = 0;
  for (const file of files) {
    const cycle = cycleThrough(file);
    if (cycle) {
      found++;
      console.log(cycle.map((f) => relative(root, f)).join(' → '));
    }
  }
  process.exit(found > 0 ? 1 : 0);
}
