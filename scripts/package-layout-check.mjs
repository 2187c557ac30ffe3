#!/usr/bin/env node
// Packaging LAYOUT CHECK — not an installer.
//
// The Electron binary cannot be downloaded here, so no real package can be built or started. What
// can be checked is what electron-builder would put into app.asar: it runs `electron-builder --dir`
// against a stub electronDist (an executable named `electron` plus a `version` file) and then
// asserts that app.asar holds what the app needs at run time and nothing it must not ship
// (tests, TypeScript sources, dev tooling). Prints one ok/FAIL line per check, exits 1 on any FAIL.
//
//   node scripts/package-layout-check.mjs
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractFile, listPackage } from '@electron/asar';

const root = resolve(import.meta.dirname, '..');
const started = Date.now();
const say = (line) => process.stdout.write(`${line}\n`);

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

// 1. The build the package is made of. Built here only if missing (npm test builds first).
if (!existsSync(join(root, 'out', 'main', 'index.js'))) {
  say('out/ is missing: building it first (npx electron-vite build)');
  const build = run('npx', ['electron-vite', 'build']);
  if (!build.ok) {
    say(build.output);
    say('FAIL electron-vite build');
    process.exit(1);
  }
}

// 2. A stub electronDist: electron-builder copies it instead of downloading Electron.
const work = mkdtempSync(join(tmpdir(), 'harbor-layout-'));
const stub = join(work, 'electron-dist');
const output = join(work, 'dist');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
spawnSync('mkdir', ['-p', stub]);
writeFileSync(join(stub, 'electron'), '#!/bin/sh\necho "stub Electron for the layout check: not runnable" >&2\nexit 1\n');
chmodSync(join(stub, 'electron'), 0o755);
writeFileSync(join(stub, 'version'), electronVersion);

const checks = [];
const check = (ok, name) => {
  checks.push({ ok, name });
  say(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
};

try {
  say(`layout check (not an installer): electron-builder --dir, stub Electron ${electronVersion}`);
  const builder = run(
    'npx',
    [
      'electron-builder',
      '--dir',
      '--linux',
      '--x64',
      '--publish',
      'never',
      `-c.electronDist=${stub}`,
      // A private output folder: parallel runs and a developer's own dist/ never collide.
      `-c.directories.output=${output}`,
    ],
    // Never download: not Electron (the stub replaces it), not native-rebuild headers.
    { ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ELECTRON_BUILDER_OFFLINE: '1', CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
  );
  const asarPath = join(output, 'linux-unpacked', 'resources', 'app.asar');
  check(builder.ok && existsSync(asarPath), 'electron-builder --dir produced linux-unpacked/resources/app.asar');
  if (!existsSync(asarPath)) {
    say(builder.output.split('\n').slice(-30).join('\n'));
    throw new Error('no app.asar to check');
  }

  const entries = listPackage(asarPath, { isPack: false }).map((e) => e.replaceAll('\\', '/').replace(/^\//, ''));
  const files = new Set(entries);
  const has = (path) => files.has(path);
  const anyUnder = (prefix) => entries.some((e) => e === prefix || e.startsWith(`${prefix}/`));
  const readText = (path) => extractFile(asarPath, path).toString('utf8');

  // What the app needs.
  for (const path of ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) {
    check(has(path), `contains ${path}`);
  }
  for (const dep of ['zod', '@modelcontextprotocol/client']) {
    check(has(`node_modules/${dep}/package.json`), `contains node_modules/${dep}`);
  }
  const pkg = JSON.parse(readText('package.json'));
  check(has(pkg.main), `package.json "main" (${pkg.main}) is in the asar`);

  // Every package the main bundle imports at run time is shipped (electron-vite keeps deps external).
  const builtins = new Set([...builtinModules, 'electron']);
  const imported = new Set();
  for (const file of entries.filter((e) => e.startsWith('out/main/') && e.endsWith('.js'))) {
    const code = readText(file);
    const specs = [
      ...code.matchAll(/^import\s+(?:[^'";]*?\s*from\s*)?["']([^"']+)["']/gm), // static, bundler output: one per line
      ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g), // dynamic, literal specifier
    ].map((m) => m[1]);
    for (const spec of specs) {
      if (spec.startsWith('.') || spec.startsWith('/')) continue;
      if (spec.startsWith('node:') || builtins.has(spec.split('/')[0])) continue;
      imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  const missing = [...imported].filter((name) => !has(`node_modules/${name}/package.json`));
  check(imported.size > 0 && missing.length === 0, `every package out/main imports is shipped (${[...imported].sort().join(', ')})${missing.length ? ` — missing: ${missing.join(', ')}` : ''}`);

  // The sandboxed preload can require only electron: the contract and zod must be inlined.
  const preloadRequires = [...readText('out/preload/index.cjs').matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
  check(preloadRequires.length > 0 && preloadRequires.every((r) => r === 'electron'), `out/preload/index.cjs requires only electron (found: ${[...new Set(preloadRequires)].join(', ') || 'none'})`);

  // What it must not ship.
  const forbidden = [
    ['test', 'test/'],
    ['main', 'main/ TypeScript sources'],
    ['preload', 'preload/ TypeScript sources'],
    ['renderer/src', 'renderer/src'],
    ['renderer', 'renderer/ sources'],
    ['scripts', 'scripts/'],
    ['.ci', '.ci/'],
    ['.git', '.git/'],
    ['node_modules/electron', 'node_modules/electron'],
    ['node_modules/electron-builder', 'node_modules/electron-builder'],
    ['node_modules/electron-vite', 'node_modules/electron-vite'],
    ['node_modules/vitest', 'node_modules/vitest'],
    ['node_modules/vite', 'node_modules/vite'],
    ['node_modules/@playwright', 'node_modules/@playwright'],
    ['node_modules/typescript', 'node_modules/typescript'],
    ['node_modules/eslint', 'node_modules/eslint'],
    ['node_modules/node', 'node_modules/node (the toolchain Node binary)'],
  ];
  for (const [prefix, label] of forbidden) check(!anyUnder(prefix), `does not contain ${label}`);
  const tsSources = entries.filter((e) => /\.(ts|tsx|mts|cts)$/.test(e) && !/\.d\.[mc]?ts$/.test(e));
  check(tsSources.length === 0, `no TypeScript sources anywhere${tsSources.length ? ` (e.g. ${tsSources.slice(0, 3).join(', ')})` : ''}`);
  const maps = entries.filter((e) => e.startsWith('out/') && e.endsWith('.map'));
  check(maps.length === 0, `no source maps under out/${maps.length ? ` (e.g. ${maps[0]})` : ''}`);
  check(!has('package-lock.json') && !has('electron-builder.yml'), 'no lockfile or build config');

  say(`app.asar: ${entries.length} entries, ${(readFileSync(asarPath).length / 1e6).toFixed(1)} MB`);
} catch (error) {
  check(false, `layout check could not finish: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = checks.filter((c) => !c.ok).length;
say(`\nlayout check (not an installer): ${checks.length - failed} ok, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(failed > 0 ? 1 : 0);
