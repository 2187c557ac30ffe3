/**
 * electron-builder.yml, parsed: the installer targets and settings the issue asks for, and the
 * files they point at. (What electron-builder actually packs is checked by
 * scripts/package-layout-check.mjs; the installers themselves are built only by the release
 * workflow on real runners.)
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HARBOR_SCHEME } from '../../main/shell/deep-link';

const ROOT = resolve(import.meta.dirname, '../..');
const text = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
type Target = { target: string; arch?: string[] } | string;
const config = parse(text) as {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  extraResources: Array<{ from: string; to: string; filter?: string[] }>;
  protocols: Array<{ name: string; schemes: string[] }>;
  publish: { provider: string };
  win: { icon: string; target: Target[] };
  nsis: Record<string, unknown>;
  mac: { icon: string; target: Target[]; hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string; notarize?: unknown };
  linux: { icon: string; target: Target[] };
  electronFuses?: Record<string, boolean>;
};
const targets = (list: Target[]) => list.map((t) => (typeof t === 'string' ? { target: t } : t));

describe('electron-builder.yml', () => {
  it('names the app', () => {
    expect(config.appId).toBe('dev.harbor.app');
    expect(config.productName).toBe('Harbor');
    expect(config.directories.buildResources).toBe('build');
  });

  it('Windows: NSIS, per user, no elevation', () => {
    expect(targets(config.win.target).map((t) => t.target)).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ perMachine: false, allowElevation: false, oneClick: true });
  });

  it('macOS: dmg and zip for arm64 and x64, hardened runtime with the entitlements file, notarization left to the environment', () => {
    const mac = targets(config.mac.target);
    expect(mac.map((t) => t.target).sort()).toEqual(['dmg', 'zip']);
    for (const t of mac) expect([...(t.arch ?? [])].sort()).toEqual(['arm64', 'x64']);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.entitlements).toBe('build/entitlements.mac.plist');
    expect(config.mac.entitlementsInherit).toBe('build/entitlements.mac.plist');
    const plist = readFileSync(join(ROOT, config.mac.entitlements), 'utf8');
    const granted = [...plist.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
    expect(granted.sort()).toEqual([
      'com.apple.security.cs.allow-jit',
      'com.apple.security.cs.allow-unsigned-executable-memory',
      'com.apple.security.cs.disable-library-validation',
    ]);
    // notarize unset = electron-builder notarizes when APPLE_* variables are present, skips otherwise.
    expect(config.mac.notarize).toBeUndefined();
  });

  it('Linux: AppImage and deb', () => {
    expect(targets(config.linux.target).map((t) => t.target).sort()).toEqual(['AppImage', 'deb']);
  });

  it('points at icons that exist, all made from one source', () => {
    expect(statSync(join(ROOT, config.win.icon)).size).toBeGreaterThan(0);
    expect(config.win.icon).toBe('build/icon.ico');
    expect(config.mac.icon).toBe('build/icon.icns');
    expect(existsSync(join(ROOT, config.mac.icon))).toBe(true);
    expect(existsSync(join(ROOT, config.linux.icon, '512x512.png'))).toBe(true);
  });

  it('ships the bundled example server beside the asar, native modules unpacked, maps and sources out', () => {
    expect(config.asar).toBe(true);
    expect(config.extraResources).toEqual([{ from: 'out/example-server', to: 'example-server', filter: ['**/*', '!**/*.map'] }]);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json', '!out/**/*.map', '!out/example-server/**', '!test/**']));
  });

  it('declares the harbor:// scheme the app handles, and an update feed', () => {
    expect(config.protocols).toEqual([{ name: 'Harbor', schemes: [HARBOR_SCHEME] }]);
    expect(config.publish.provider).toBeTruthy();
  });

  it('sets the Electron fuses: run-as-node kept, NODE_OPTIONS and inspect off, asar integrity and only-from-asar on', () => {
    // Exactly these: a fuse added or flipped here is a decision for review, not a drive-by.
    expect(config.electronFuses).toEqual({
      // The keychain helper and bundled servers run on Electron's Node with ELECTRON_RUN_AS_NODE=1.
      runAsNode: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      resetAdHocDarwinSignature: true,
    });
    // only-from-asar needs an asar to load from.
    expect(config.asar).toBe(true);
  });

  it('holds no credential', () => {
    expect(text).not.toMatch(/password\s*:|APPLE_ID\s*:|CSC_LINK\s*:|token\s*:/i);
  });
});
