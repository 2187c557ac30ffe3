/**
 * The built renderer's first paint loads the shell, React and the contract, not every page: the
 * scripts index.html loads and everything they import statically weigh at most half of the single
 * bundle the app loaded before its pages became lazy chunks, and no page's code is among them.
 * Reads out/renderer (npm run build first). The bench's ui-scale arm measures the same in Chromium,
 * with the page the first paint shows.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const OUT = join(import.meta.dirname, '../../out/renderer');
/** out/renderer/assets/index-*.js before code-splitting (commit 9b2b681): the one script index.html loaded. */
const BUNDLE_BEFORE_SPLIT_BYTES = 2_149_762;

/** Relative scripts a module imports statically (`import … from"./x.js"`, `import"./x.js"`); `import("./x.js")` is lazy and not counted. */
function staticImports(file: string): string[] {
  const code = readFileSync(join(OUT, 'assets', file), 'utf8');
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]!);
}

/** The scripts of the first paint: index.html's module script and module preloads, and their static imports. */
function firstPaintScripts(): string[] {
  const html = readFileSync(join(OUT, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/(?:src|href)="\.\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return [...seen];
}

describe('the renderer build', () => {
  it('loads at most half of the pre-split bundle before its first page, and no page with it', () => {
    const scripts = firstPaintScripts();
    const bytes = scripts.reduce((sum, file) => sum + statSync(join(OUT, 'assets', file)).size, 0);
    expect(scripts.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(BUNDLE_BEFORE_SPLIT_BYTES / 2);
    expect(scripts.filter((file) => /Page|Markdown/.test(file))).toEqual([]);
  });
});
