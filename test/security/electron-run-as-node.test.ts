/**
 * Security, issue #27 finding 9 — NOT fixed, held where it stands: the macOS `runAsNode` fuse
 * stays on, because two things need Electron's binary to run as plain Node
 * (ELECTRON_RUN_AS_NODE=1): the keychain helper process and servers launched with
 * `${harbor:node}` (the example server, bundles with a Node entry point), which Harbor supervises
 * and sandboxes (bubblewrap/Seatbelt) as ordinary executables. What this file holds:
 *
 * - no code path beyond those two depends on ELECTRON_RUN_AS_NODE (a new one fails here, naming
 *   its file), so turning the fuse off has a known, short list of work;
 * - the variable never reaches any other server (the stdio environment is an allowlist; only a
 *   `${harbor:node}` launch gets it);
 * - the fuses that keep code out of a running Harbor stay as they are (NODE_OPTIONS, --inspect,
 *   asar integrity, only-from-asar).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveLaunch } from '../../main/host/servers/launch';
import { buildServerEnv } from '../../main/host/servers/stdio/environment';

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(?:ts|tsx|mjs|cjs|js)$/.test(name) ? [path] : [];
  });
}

describe('ELECTRON_RUN_AS_NODE in the packaged app', () => {
  it('is set only by the keychain helper and for `${harbor:node}` launches', () => {
    const setters = ['main', 'preload', 'renderer/src', 'resources']
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .filter((file) => /ELECTRON_RUN_AS_NODE\s*:/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file))
      .sort();
    expect(setters).toEqual(['main/host/secrets/keychain-process.ts', 'main/index.ts']);
  });

  it('reaches no server but one launched with `${harbor:node}`, whatever Harbor itself was started with', () => {
    const vars = { node: '/opt/Harbor/Harbor', resources: '/opt/Harbor/resources', data: '/data', nodeEnv: { ELECTRON_RUN_AS_NODE: '1' } };
    const other = resolveLaunch('npx-server', { command: 'npx', args: ['-y', 'some-server'] }, vars);
    const own = resolveLaunch('notes', { command: '${harbor:node}', args: ['${harbor:resources}/example-server/notes-server.mjs'] }, vars);
    expect(other.transport === 'stdio' && other.env).toEqual({});
    expect(own.transport === 'stdio' && own.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
    const inherited = buildServerEnv({ base: { ELECTRON_RUN_AS_NODE: '1', PATH: '/usr/bin', HOME: '/home/ann' }, serverEnv: {}, platform: 'linux' });
    expect(inherited).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
  });
});

describe("electron-builder.yml's fuses", () => {
  const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { electronFuses: Record<string, boolean> };

  it('keep code out of a running Harbor: no NODE_OPTIONS, no --inspect, the asar checked and the only app loaded', () => {
    expect(config.electronFuses).toMatchObject({
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('keep runAsNode on only while the two users above need it (finding 9 is open: this line changes with its fix)', () => {
    expect(config.electronFuses.runAsNode).toBe(true);
  });
});
