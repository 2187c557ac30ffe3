/**
 * scripts/check-fuses.mjs, the release runners' read-back of the Electron fuses, run against
 * binaries that carry a real fuse wire (the sentinel @electron/fuses looks for, wire version 1,
 * one byte per fuse) laid out as electron-builder leaves them in dist/. No Electron binary exists
 * here: the wire is the part of it the check reads. That electron-builder flips the wire from
 * electron-builder.yml is checked by scripts/package-layout-check.mjs (npm test).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** One character per fuse, in @electron/fuses' FuseV1Options order ('1' on, '0' off). */
const ELECTRON_DEFAULTS = '101100011';
/** What electron-builder.yml asks for: run-as-node on; NODE_OPTIONS, inspect off; asar integrity, only-from-asar on. */
const HARDENED = '100011011';
const work = mkdtempSync(join(tmpdir(), 'harbor-fuses-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function fakeBinary(path: string, wire: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const filler = Buffer.alloc(4096, 0x90);
  writeFileSync(path, Buffer.concat([filler, Buffer.from(`${SENTINEL}\x01${String.fromCharCode(wire.length)}${wire}`, 'latin1'), filler]));
}

function check(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'check-fuses.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('scripts/check-fuses.mjs', () => {
  it('passes binaries whose fuses are the ones electron-builder.yml sets, in every layout dist/ has', () => {
    const dist = join(work, 'hardened');
    fakeBinary(join(dist, 'linux-unpacked', 'harbor'), HARDENED);
    fakeBinary(join(dist, 'win-unpacked', 'Harbor.exe'), HARDENED);
    fakeBinary(join(dist, 'mac-arm64', 'Harbor.app', 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework'), HARDENED);
    const r = check(dist);
    expect(r.output).toContain('3 binaries checked, 0 failed');
    expect(r.output).toMatch(/ok {3}.*linux-unpacked.*: EnableNodeOptionsEnvironmentVariable is off/);
    expect(r.output).toMatch(/ok {3}.*Harbor\.app: OnlyLoadAppFromAsar is on/);
    expect(r.code, r.output).toBe(0);
  });

  it('fails an unflipped Electron (its defaults), naming each wrong fuse', () => {
    const dist = join(work, 'unflipped');
    fakeBinary(join(dist, 'linux-unpacked', 'harbor'), ELECTRON_DEFAULTS);
    const r = check(dist);
    expect(r.code).toBe(1);
    for (const fuse of ['EnableNodeOptionsEnvironmentVariable is on', 'EnableNodeCliInspectArguments is on', 'EnableEmbeddedAsarIntegrityValidation is off', 'OnlyLoadAppFromAsar is off']) {
      expect(r.output).toContain(`FAIL ${join(dist, 'linux-unpacked', 'harbor')}: ${fuse}, electron-builder.yml wants`);
    }
    expect(r.output).toMatch(/ok {3}.*RunAsNode is on/);
  });

  it('fails one fuse flipped the wrong way, a binary without a fuse wire, and a dist/ without binaries', () => {
    const oneWrong = join(work, 'one-wrong');
    fakeBinary(join(oneWrong, 'linux-unpacked', 'harbor'), `0${HARDENED.slice(1)}`);
    expect(check(oneWrong)).toMatchObject({ code: 1, output: expect.stringContaining('RunAsNode is off, electron-builder.yml wants on') });

    const noWire = join(work, 'no-wire', 'harbor');
    mkdirSync(dirname(noWire), { recursive: true });
    writeFileSync(noWire, '#!/bin/sh\nexit 0\n');
    expect(check(noWire)).toMatchObject({ code: 1, output: expect.stringMatching(/the fuses cannot be read: Could not find sentinel/) });

    const empty = join(work, 'empty');
    mkdirSync(empty);
    expect(check(empty)).toMatchObject({ code: 1, output: expect.stringContaining('no packaged Harbor binary found') });
  });
});
