#!/usr/bin/env node
// Reads the Electron fuses back from packaged Harbor binaries and compares them with
// electron-builder.yml's `electronFuses`: proof that the binary people install has the switches
// the config promises, not just that the config says so. Prints one ok/FAIL line per fuse and
// binary, exits 1 on any FAIL (and when no packaged binary is found).
//
//   node scripts/check-fuses.mjs [dist-folder | binary …]     (default: dist)
//
// A dist folder is searched for electron-builder's unpacked apps: linux-unpacked/<executable>,
// win-unpacked/<productName>.exe, mac*/<productName>.app.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '..');
const say = (line) => process.stdout.write(`${line}\n`);

/** electron-builder options that are not fuses (they steer how the fuses are flipped). */
const NOT_FUSES = new Set(['resetAdHocDarwinSignature', 'strictlyRequireAllFuses']);

const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** electron-builder's option names are the fuse names with a lower-case first letter. */
function expectedFuses() {
  return Object.entries(config.electronFuses ?? {})
    .filter(([key]) => !NOT_FUSES.has(key))
    .map(([key, enabled]) => {
      const name = key[0].toUpperCase() + key.slice(1);
      return { key, name, index: FuseV1Options[name], enabled };
    });
}

function packagedBinaries(dist) {
  const productName = config.productName ?? pkg.productName ?? pkg.name;
  const linuxExecutable = config.linux?.executableName ?? config.executableName ?? pkg.name.toLowerCase();
  const found = [];
  for (const entry of existsSync(dist) ? readdirSync(dist) : []) {
    const dir = join(dist, entry);
    if (!statSync(dir).isDirectory()) continue;
    const candidates =
      entry === 'linux-unpacked' || entry.startsWith('linux-') ? [join(dir, linuxExecutable)]
      : entry === 'win-unpacked' || entry.startsWith('win-') ? [join(dir, `${productName}.exe`)]
      : entry === 'mac' || entry.startsWith('mac-') ? [join(dir, `${productName}.app`)]
      : [];
    found.push(...candidates.filter((path) => existsSync(path)));
  }
  return found;
}

const describeState = (state) =>
  state === FuseState.ENABLE ? 'on' : state === FuseState.DISABLE ? 'off' : state === FuseState.REMOVED ? 'removed' : `unknown (${state})`;

async function checkBinary(binary, expected) {
  let wire;
  try {
    wire = await getCurrentFuseWire(binary);
  } catch (error) {
    return [{ ok: false, line: `${binary}: the fuses cannot be read: ${error instanceof Error ? error.message : String(error)}` }];
  }
  return expected.map(({ key, name, index, enabled }) => {
    if (index === undefined) return { ok: false, line: `${binary}: ${key} is not a fuse @electron/fuses knows` };
    const state = wire[index];
    const want = enabled ? FuseState.ENABLE : FuseState.DISABLE;
    return { ok: state === want, line: `${binary}: ${name} is ${describeState(state)}${state === want ? '' : `, electron-builder.yml wants ${enabled ? 'on' : 'off'}`}` };
  });
}

const args = process.argv.slice(2);
const targets = args.length === 0 ? [join(root, 'dist')] : args.map((arg) => resolve(arg));
const binaries = targets.flatMap((target) => (existsSync(target) && statSync(target).isDirectory() && !target.endsWith('.app') ? packagedBinaries(target) : [target]));
const expected = expectedFuses();

let failed = 0;
if (expected.length === 0) {
  say('FAIL electron-builder.yml sets no electronFuses');
  failed++;
}
if (binaries.length === 0) {
  say(`FAIL no packaged Harbor binary found in ${targets.join(', ')} (run electron-builder first)`);
  failed++;
}
for (const binary of binaries) {
  for (const { ok, line } of await checkBinary(binary, expected)) {
    say(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
    if (!ok) failed++;
  }
}
say(`\nfuses: ${binaries.length} binar${binaries.length === 1 ? 'y' : 'ies'} checked, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
