#!/usr/bin/env node
// Packaging LAYOUT CHECK — not an installer.
//
// The Electron binary cannot be downloaded here, so no real package can be built or started. What
// can be checked is what electron-builder would put into app.asar and resources/: it runs
// `electron-builder --dir` against a stub electronDist (an executable named `electron` plus a
// `version` file) and then asserts that the package holds what the app needs at run time (the
// build, production dependencies, the bundled example server beside the asar, the keychain's
// native module unpacked, the updater's app-update.yml) and nothing it must not ship (tests,
// fixtures, TypeScript sources, source maps, any devDependency). Prints one ok/FAIL line per
// check, exits 1 on any FAIL.
//
//   node scripts/package-layout-check.mjs
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { extractFile, listPackage, statFile } from '@electron/asar';

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

// The example server travels as ONE bundled file (extraResources): always rebuilt, it is cheap and
// a stale bundle would hide a broken one.
const bundled = run(process.execPath, [join(root, 'scripts', 'bundle-example-server.mjs')]);
if (!bundled.ok) {
  say(bundled.output);
  say('FAIL node scripts/bundle-example-server.mjs');
  process.exit(1);
}

// 2. A stub electronDist: electron-builder copies it instead of downloading Electron.
const work = mkdtempSync(join(tmpdir(), 'harbor-layout-'));
const stub = join(work, 'electron-dist');
const output = join(work, 'dist');
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
mkdirSync(stub, { recursive: true });
// The stub carries a fuse wire like Electron's (sentinel, version 1, length, one byte per fuse at
// Electron's defaults) so electron-builder's fuse flipping runs on it and can be read back.
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ELECTRON_DEFAULT_FUSES = '101100011';
writeFileSync(
  join(stub, 'electron'),
  `#!/bin/sh\necho "stub Electron for the layout check: not runnable" >&2\nexit 1\n# ${FUSE_SENTINEL}\x01${String.fromCharCode(ELECTRON_DEFAULT_FUSES.length)}${ELECTRON_DEFAULT_FUSES}\n`,
  'latin1',
);
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
  const resources = join(output, 'linux-unpacked', 'resources');
  const asarPath = join(resources, 'app.asar');
  check(builder.ok && existsSync(asarPath), 'electron-builder --dir produced linux-unpacked/resources/app.asar');
  if (!existsSync(asarPath)) {
    say(builder.output.split('\n').slice(-30).join('\n'));
    throw new Error('no app.asar to check');
  }

  // The fuses electron-builder.yml sets, read back from the (stub) binary electron-builder flipped.
  const fuses = run(process.execPath, [join(root, 'scripts', 'check-fuses.mjs'), output]);
  check(fuses.ok, 'electron-builder flipped the fuses electron-builder.yml sets (scripts/check-fuses.mjs on the stub binary)');
  if (!fuses.ok) say(fuses.output);

  const entries = listPackage(asarPath, { isPack: false }).map((e) => e.replaceAll('\\', '/').replace(/^\//, ''));
  const files = new Set(entries);
  const has = (path) => files.has(path);
  const anyUnder = (prefix) => entries.some((e) => e === prefix || e.startsWith(`${prefix}/`));
  const readText = (path) => extractFile(asarPath, path).toString('utf8');

  // What the app needs.
  for (const path of ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) {
    check(has(path), `contains ${path}`);
  }
  for (const dep of ['zod', '@modelcontextprotocol/client', 'electron-updater', '@napi-rs/keyring']) {
    check(has(`node_modules/${dep}/package.json`), `contains node_modules/${dep}`);
  }
  const pkg = JSON.parse(readText('package.json'));
  check(has(pkg.main), `package.json "main" (${pkg.main}) is in the asar`);

  // Every package the main bundle imports at run time is shipped (electron-vite keeps deps external).
  const builtins = new Set([...builtinModules, 'electron']);
  const imported = new Set();
  // The CLI's commands are chunks it imports when they run: each relative import must be in the asar too.
  const unresolved = [];
  let relative = 0;
  for (const file of entries.filter((e) => e.startsWith('out/main/') && e.endsWith('.js'))) {
    const code = readText(file);
    const specs = [
      ...code.matchAll(/^import\s+(?:[^'";]*?\s*from\s*)?["']([^"']+)["']/gm), // static, bundler output: one per line
      ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g), // dynamic, literal specifier
    ].map((m) => m[1]);
    for (const spec of specs) {
      if (spec.startsWith('.')) {
        relative += 1;
        const target = posix.join(posix.dirname(file), spec);
        if (!has(target)) unresolved.push(`${file} → ${spec}`);
        continue;
      }
      if (spec.startsWith('/')) continue;
      if (spec.startsWith('node:') || builtins.has(spec.split('/')[0])) continue;
      imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  check(relative > 0 && unresolved.length === 0, `every file out/main imports (${relative} relative imports, the CLI's command chunks among them) is in the asar${unresolved.length ? ` — missing: ${unresolved.join(', ')}` : ''}`);
  const missing = [...imported].filter((name) => !has(`node_modules/${name}/package.json`));
  check(imported.size > 0 && missing.length === 0, `every package out/main imports is shipped (${[...imported].sort().join(', ')})${missing.length ? ` — missing: ${missing.join(', ')}` : ''}`);

  // The sandboxed preload can require only electron: the contract and zod must be inlined.
  const preloadRequires = [...readText('out/preload/index.cjs').matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
  check(preloadRequires.length > 0 && preloadRequires.every((r) => r === 'electron'), `out/preload/index.cjs requires only electron (found: ${[...new Set(preloadRequires)].join(', ') || 'none'})`);

  // What it must not ship.
  const forbidden = [
    ['test', 'test/ (tests and fixtures)'],
    ['main', 'main/ TypeScript sources'],
    ['preload', 'preload/ TypeScript sources'],
    ['renderer', 'renderer/ sources'],
    ['resources', 'resources/ (the unbundled example server: it ships bundled, outside the asar)'],
    ['build', 'build/ (icons, entitlements)'],
    ['scripts', 'scripts/'],
    ['bench', 'bench/'],
    ['.ci', '.ci/'],
    ['.git', '.git/'],
    ['.github', '.github/'],
    ['out/example-server', 'out/example-server (it ships in resources/, not in the asar)'],
  ];
  for (const [prefix, label] of forbidden) check(!anyUnder(prefix), `does not contain ${label}`);
  // Named for a readable failure; the lockfile check below covers every devDependency.
  for (const name of ['electron', 'electron-builder', 'electron-vite', 'vite', 'vitest', 'rolldown', '@playwright/test', 'playwright-core', 'typescript', 'eslint', 'react', 'react-dom', 'node', 'happy-dom', '@testing-library/react', '@electron/asar']) {
    check(!anyUnder(`node_modules/${name}`), `does not contain node_modules/${name}${name === 'node' ? ' (the toolchain Node binary)' : ''}`);
  }

  // Every package in the asar is a production package: one that package-lock.json does not mark
  // dev-only. Matched by name and version: electron-builder re-hoists (a production dependency's
  // nested copy may sit at the top of the asar's node_modules).
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const lockByName = new Map();
  for (const [path, info] of Object.entries(lock)) {
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!path.includes('node_modules/') || !info.version) continue;
    lockByName.set(`${name}@${info.version}`, [...(lockByName.get(`${name}@${info.version}`) ?? []), info]);
  }
  /** `node_modules/a/node_modules/@s/b` → '@s/b'; undefined for a folder inside a package. */
  const packageNameOf = (dir) => {
    const parts = dir.split('/');
    let i = 0;
    let name;
    while (i < parts.length) {
      if (parts[i] !== 'node_modules') return undefined;
      const scoped = parts[i + 1]?.startsWith('@');
      name = scoped ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
      if (!name || name.startsWith('.')) return undefined;
      i += scoped ? 3 : 2;
    }
    return name;
  };
  const shippedPackages = entries
    .filter((e) => e.startsWith('node_modules/') && e.endsWith('/package.json'))
    .map((e) => e.slice(0, -'/package.json'.length))
    .filter((dir) => packageNameOf(dir) !== undefined)
    .map((dir) => {
      let version;
      try {
        version = JSON.parse(readText(`${dir}/package.json`)).version;
      } catch {
        version = undefined;
      }
      const id = `${packageNameOf(dir)}@${version}`;
      return { dir, id, locked: lockByName.get(id) };
    });
  const devOnly = shippedPackages.filter((p) => p.locked && p.locked.every((info) => info.dev === true));
  const unknown = shippedPackages.filter((p) => !p.locked);
  check(shippedPackages.length > 0 && devOnly.length === 0, `no dev-only package (package-lock "dev": true) among ${shippedPackages.length} shipped${devOnly.length ? ` — found: ${devOnly.slice(0, 8).map((p) => p.id).join(', ')}` : ''}`);
  check(unknown.length === 0, `every shipped package is in package-lock.json${unknown.length ? ` — not found: ${unknown.slice(0, 8).map((p) => p.id).join(', ')}` : ''}`);

  const tsSources = entries.filter((e) => /\.(ts|tsx|mts|cts)$/.test(e) && !/\.d\.[mc]?ts$/.test(e));
  check(tsSources.length === 0, `no TypeScript sources anywhere${tsSources.length ? ` (e.g. ${tsSources.slice(0, 3).join(', ')})` : ''}`);
  const maps = entries.filter((e) => e.startsWith('out/') && e.endsWith('.map'));
  check(maps.length === 0, `no source maps under out/${maps.length ? ` (e.g. ${maps[0]})` : ''}`);
  const fixtures = entries.filter((e) => /(^|\/)fixtures\//.test(e) && !e.startsWith('node_modules/'));
  check(fixtures.length === 0, `no test fixtures${fixtures.length ? ` (e.g. ${fixtures[0]})` : ''}`);
  check(!has('package-lock.json') && !has('electron-builder.yml'), 'no lockfile or build config');

  // Native modules: the keychain binding cannot load from inside the asar; it must be unpacked.
  const nativeModules = entries.filter((e) => e.endsWith('.node'));
  const keyringNative = nativeModules.filter((e) => e.startsWith('node_modules/@napi-rs/keyring-'));
  check(keyringNative.length > 0, `the keychain's native module is packaged (${keyringNative.join(', ') || 'none found'})`);
  const packedNative = nativeModules.filter((e) => {
    const unpackedFlag = statFile(asarPath, e, false)?.unpacked === true;
    const onDisk = existsSync(join(`${asarPath}.unpacked`, e));
    return !(unpackedFlag && onDisk);
  });
  check(nativeModules.length > 0 && packedNative.length === 0, `every .node file is unpacked to app.asar.unpacked/ (${nativeModules.length})${packedNative.length ? ` — still packed: ${packedNative.join(', ')}` : ''}`);

  // The sandbox runtime's helper programs are executed by path: nothing runs from inside an asar.
  const sandboxHelper = `node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/${process.arch === 'arm64' ? 'arm64' : 'x64'}/apply-seccomp`;
  check(has(sandboxHelper), `the sandbox's seccomp helper is packaged (${sandboxHelper})`);
  check(existsSync(join(`${asarPath}.unpacked`, sandboxHelper)), "it is unpacked to app.asar.unpacked/ (the sandbox runs it by path)");

  // resources/ beside the asar: the bundled example server and the updater's feed.
  const bundledServer = join(resources, 'example-server', 'notes-server.mjs');
  check(existsSync(bundledServer), 'resources/example-server/notes-server.mjs (the bundled example server) is beside app.asar');
  if (existsSync(bundledServer)) {
    const code = readFileSync(bundledServer, 'utf8');
    check(code === readFileSync(join(root, 'out', 'example-server', 'notes-server.mjs'), 'utf8'), 'it is the bundle scripts/bundle-example-server.mjs wrote');
    const bare = [...code.matchAll(/^\s*import\s+(?:[^'";]*?\s*from\s*)?["']([^"']+)["']/gm)]
      .map((m) => m[1])
      .filter((spec) => !spec.startsWith('node:') && !builtins.has(spec));
    check(bare.length === 0, `it imports only Node builtins (self-contained)${bare.length ? ` — imports: ${[...new Set(bare)].join(', ')}` : ''}`);
    check(statSync(bundledServer).size > 100_000, 'it carries its dependencies inlined (over 100 kB)');
  }
  const extraFiles = ['example-server'].flatMap((d) => (existsSync(join(resources, d)) ? spawnSync('find', [join(resources, d), '-type', 'f'], { encoding: 'utf8' }).stdout.trim().split('\n') : []));
  check(extraFiles.length === 1, `resources/example-server holds exactly one file (${extraFiles.length})`);
  const updateYml = join(resources, 'app-update.yml');
  const feed = existsSync(updateYml) ? readFileSync(updateYml, 'utf8') : '';
  check(/^provider:\s*\S+/m.test(feed), `resources/app-update.yml names the update provider (${feed.match(/^provider:\s*(\S+)/m)?.[1] ?? 'missing'})`);

  say(`app.asar: ${entries.length} entries, ${(readFileSync(asarPath).length / 1e6).toFixed(1)} MB`);
} catch (error) {
  check(false, `layout check could not finish: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const failed = checks.filter((c) => !c.ok).length;
say(`\nlayout check (not an installer): ${checks.length - failed} ok, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(failed > 0 ? 1 : 0);
