#!/usr/bin/env node
// `npm test`: every check, in order, stopping at nothing so one run shows all failures.
// Ends with one plain line "N passed, N failed, N skipped" over all test cases (vitest + playwright).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { playwrightFailures, vitestFailures } from './test-failures.mjs';

const outDir = 'test/output';
mkdirSync(outDir, { recursive: true });
const vitestJson = join(outDir, 'vitest.json');
const playwrightJson = join(outDir, 'playwright.json');

const steps = [
  ['lint (house rules, floating promises, type imports)', 'npx', ['eslint', '--max-warnings', '0', '.']],
  ['unused code (knip: files, exports, dependencies)', 'npx', ['knip', '--no-progress']],
  ['type-check node side (main, preload vs electron.d.ts, tests)', 'npx', ['tsc', '-p', 'tsconfig.node.json']],
  ['type-check web side (renderer)', 'npx', ['tsc', '-p', 'tsconfig.web.json']],
  ['build (electron-vite: main + cli, preload, renderer; bundled example server)', 'npm', ['run', 'build']],
  ['unit + integration (vitest)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]],
  ['MCP conformance suite (both requirement sets, loopback-only netns)', 'node', ['scripts/conformance.mjs']],
  ['e2e (playwright, Debian chromium, browser mode)', 'npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson }],
  ['packaging layout check (electron-builder --dir, stub electronDist)', 'node', ['scripts/package-layout-check.mjs']],
];

const results = [];
for (const [name, cmd, args, env] of steps) {
  const started = Date.now();
  process.stdout.write(`\n=== ${name}\n`);
  // shell on Windows: npx/npm are .cmd shims there, which Node will not spawn without one.
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  results.push({ name, ok: r.status === 0, seconds: (Date.now() - started) / 1000 });
}

let passed = 0;
let failed = 0;
let skipped = 0;
/** Each failed test as "file > name: first line of its error", so the end of a log says which. */
const failures = [];
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  failures.push(...vitestFailures(v, process.cwd()));
}
if (existsSync(playwrightJson)) {
  const p = JSON.parse(readFileSync(playwrightJson, 'utf8'));
  passed += p.stats?.expected ?? 0;
  failed += (p.stats?.unexpected ?? 0) + (p.stats?.flaky ?? 0);
  skipped += p.stats?.skipped ?? 0;
  failures.push(...playwrightFailures(p.suites ?? []));
}

process.stdout.write('\n=== summary\n');
for (const r of results) process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)\n`);
for (const f of failures.slice(0, 20)) process.stdout.write(`failed: ${f}\n`);
if (failures.length > 20) process.stdout.write(`failed: … and ${failures.length - 20} more (above in the log)\n`);
const stepFailures = results.filter((r) => !r.ok).length;
if (stepFailures > 0 && failed === 0) failed = stepFailures; // a failed lint/type-check/build step counts
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(stepFailures > 0 ? 1 : 0);

