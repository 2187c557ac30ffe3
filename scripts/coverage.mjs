#!/usr/bin/env node
// `npm run coverage`: one line-coverage report of main/, preload/ and renderer/src/ from everything that
// runs them: Vitest in its own processes (@vitest/coverage-v8), the built CLI and `harbor web` that the
// tests start (NODE_V8_COVERAGE, mapped through out/main's source maps), and the renderer in Chromium
// under Playwright (page.coverage, test/e2e/coverage.ts, mapped through out/renderer's source maps).
// Writes coverage/lcov.info and coverage/coverage-summary.json, prints the total and the files below 70 %.
//
//   npm run coverage                                   build, vitest, e2e, merge
//   npm run coverage -- --vitest test/unit/x.test.ts   only these vitest files (and every e2e spec)
//   npm run coverage -- --e2e test/e2e/nav-rail.spec.ts --no-vitest
//   npm run coverage -- --no-e2e, then -- --no-vitest --keep   the two halves apart, merged at the end
//   npm run coverage -- --merge-only                   merge what coverage/parts already holds
//
// Opt-in: npm test and CI measure nothing (the variables below are set only here).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CoverageReport } from 'monocart-coverage-reports';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'coverage');
const PARTS = join(OUT, 'parts');
const VITEST_DIR = join(PARTS, 'vitest'); // Vitest's own (Istanbul JSON)
const NODE_DIR = join(PARTS, 'node-v8'); // raw V8 coverage of the Node processes the tests start
const BROWSER_DIR = join(PARTS, 'browser-v8'); // raw V8 coverage of the e2e pages
const LOW = 70;
const OURS = /^(main|preload|renderer\/src)\//;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    vitest: { type: 'string', multiple: true, default: [] },
    e2e: { type: 'string', multiple: true, default: [] },
    'no-vitest': { type: 'boolean', default: false },
    'no-e2e': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'merge-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
if (positionals.length > 0) {
  process.stderr.write(`coverage: unexpected ${positionals.join(' ')}; name test files with --vitest FILE or --e2e FILE.\n`);
  process.exit(2);
}

/** Runs one step; a failing test fails the step but the coverage it wrote is still merged. */
function step(name, cmd, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n=== ${name}\n`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`=== ${name}: ${r.status === 0 ? 'ok' : `exit ${r.status ?? r.signal}`} (${seconds} s)\n`);
  return r.status === 0;
}

const failed = [];
if (!values['merge-only']) {
  if (!values.keep) rmSync(OUT, { recursive: true, force: true });
  for (const dir of [VITEST_DIR, NODE_DIR, BROWSER_DIR]) mkdirSync(dir, { recursive: true });
  if (!values['no-build'] && !step('build (with renderer source maps)', 'npm', ['run', 'build'], { HARBOR_COVERAGE_SOURCEMAPS: '1' })) {
    process.stderr.write('coverage: the build failed; nothing to measure.\n');
    process.exit(1);
  }
  if (!values['no-vitest']) {
    const ok = step('vitest with coverage', 'npx', ['vitest', 'run', '--coverage.enabled', `--coverage.reportsDirectory=${VITEST_DIR}`, ...values.vitest], {
      HARBOR_COVERAGE_NODE_DIR: NODE_DIR,
    });
    if (!ok) failed.push('vitest');
  }
  if (!values['no-e2e']) {
    const ok = step('e2e (Playwright, Debian Chromium) with coverage', 'npx', ['playwright', 'test', '--project=debian-chromium', ...values.e2e], {
      NODE_V8_COVERAGE: NODE_DIR,
      HARBOR_COVERAGE_BROWSER_DIR: BROWSER_DIR,
    });
    if (!ok) failed.push('e2e');
  }
}

/** Our source file for a path or URL from any of the three (absolute, relative, file: URL), or null. */
function ourFile(path) {
  const absolute = path.startsWith('file:') ? fileURLToPath(path) : isAbsolute(path) ? path : join(ROOT, path);
  const rel = relative(ROOT, absolute).split('\\').join('/');
  return OURS.test(rel) ? rel : null;
}

// 1. The raw V8 coverage (Node processes and pages) → Istanbul, mapped back to our .ts/.tsx files.
const v8Dir = join(PARTS, 'v8-istanbul');
const v8Report = new CoverageReport({
  name: 'Harbor: CLI, harbor web and renderer',
  outputDir: v8Dir,
  reports: [['json', { file: 'coverage-final.json' }]],
  logging: 'error',
  // Node processes: only our built bundle (out/main), not the test fixtures' servers or node_modules.
  entryFilter: (entry) => entry.url.startsWith(pathToFileURL(join(ROOT, 'out')).href),
  sourceFilter: (sourcePath) => ourFile(sourcePath) !== null,
  sourcePath: (sourcePath) => ourFile(sourcePath) ?? sourcePath,
});
let v8Added = 0;
if (existsSync(NODE_DIR) && readdirSync(NODE_DIR).length > 0) {
  // A process killed while writing (a timed-out test's SIGKILL) leaves a cut file: count it, read the rest.
  const whole = join(PARTS, 'node-v8-whole');
  rmSync(whole, { recursive: true, force: true });
  mkdirSync(whole);
  let cut = 0;
  for (const file of readdirSync(NODE_DIR)) {
    const text = readFileSync(join(NODE_DIR, file), 'utf8');
    try {
      JSON.parse(text);
      writeFileSync(join(whole, file), text);
    } catch {
      cut += 1;
    }
  }
  if (cut > 0) process.stdout.write(`coverage: ${cut} cut file(s) in ${NODE_DIR} left out (a process killed while writing)\n`);
  await v8Report.addFromDir(whole);
  v8Added += 1;
}
if (existsSync(BROWSER_DIR)) {
  const assets = join(ROOT, 'out', 'renderer', 'assets');
  for (const file of readdirSync(BROWSER_DIR)) {
    const scripts = JSON.parse(readFileSync(join(BROWSER_DIR, file), 'utf8')).flatMap((script) => {
      // Served from out/renderer/assets: read its map from there (the build wrote it hidden).
      const name = new URL(script.url).pathname.split('/').pop();
      const mapFile = join(assets, `${name}.map`);
      if (!existsSync(mapFile)) return [];
      return [{ ...script, url: pathToFileURL(join(assets, name)).href, sourceMap: JSON.parse(readFileSync(mapFile, 'utf8')) }];
    });
    if (scripts.length > 0) {
      await v8Report.add(scripts);
      v8Added += 1;
    }
  }
}
if (v8Added > 0) await v8Report.generate();

// 2. Merge with Vitest's (Istanbul already), keyed by our relative paths.
function relativeKeys(istanbul) {
  const out = {};
  for (const [key, data] of Object.entries(istanbul)) {
    const rel = ourFile(key);
    if (rel) out[rel] = { ...data, path: rel };
  }
  return out;
}
const merged = new CoverageReport({
  name: 'Harbor coverage',
  outputDir: OUT,
  clean: false,
  logging: 'error',
  reports: [['lcovonly', { file: 'lcov.info' }], ['json-summary', { file: 'coverage-summary.json' }]],
});
let parts = 0;
for (const file of [join(VITEST_DIR, 'coverage-final.json'), join(v8Dir, 'coverage-final.json')]) {
  if (!existsSync(file)) continue;
  await merged.add(relativeKeys(JSON.parse(readFileSync(file, 'utf8'))));
  parts += 1;
}
if (parts === 0) {
  process.stderr.write('coverage: nothing was measured (coverage/parts is empty).\n');
  process.exit(1);
}
await merged.generate();

// 3. The figures.
const summary = JSON.parse(readFileSync(join(OUT, 'coverage-summary.json'), 'utf8'));
const { total, ...files } = summary;
const low = Object.entries(files)
  .map(([file, s]) => ({ file: ourFile(file) ?? file, pct: s.lines.total === 0 ? 100 : (100 * s.lines.covered) / s.lines.total, lines: s.lines }))
  .filter((f) => f.pct < LOW)
  .sort((a, b) => a.pct - b.pct || a.file.localeCompare(b.file));
process.stdout.write(`\n=== files below ${LOW} % of lines (${low.length} of ${Object.keys(files).length})\n`);
for (const f of low) process.stdout.write(`${f.pct.toFixed(1).padStart(5)} %  ${f.file}  (${f.lines.covered}/${f.lines.total})\n`);
process.stdout.write(`\nlines: ${total.lines.pct} % (${total.lines.covered}/${total.lines.total}) of main/, preload/, renderer/src/ — coverage/lcov.info\n`);
if (failed.length > 0) {
  process.stdout.write(`(some tests failed in: ${failed.join(', ')}; the figures count what ran)\n`);
  process.exit(1);
}
