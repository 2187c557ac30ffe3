/**
 * bin/harbor.js on a Node older than package.json's engines.node: one line naming the version it
 * needs and the one it found, exit 2, and the CLI never loaded (it imports node:sqlite, which an
 * older Node cannot load). Run on a real older Node when the machine has one (Linux images ship
 * Node 20 in /usr/bin), and always on the pinned Node told it is older than it is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli';
import { NODE, REPO } from '../helpers/host';

const LAUNCHER = join(REPO, 'bin/harbor.js');
const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
const needed = /^>=(\d+\.\d+\.\d+)$/.exec(engines)?.[1];

function older(a: string, b: string): boolean {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  const i = x.findIndex((part, k) => part !== y[k]);
  return i !== -1 && x[i]! < y[i]!;
}

/** A Node on this machine, outside the repo's node_modules, older than engines.node (or undefined). */
function findOlderNode(): { path: string; version: string } | undefined {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules')).map((dir) => join(dir, 'node'));
  for (const path of new Set(['/usr/bin/node', '/usr/local/bin/node', ...onPath])) {
    if (!existsSync(path)) continue;
    const run = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const version = run.stdout?.trim();
    if (run.status === 0 && version && needed && older(version, needed)) return { path, version };
  }
  return undefined;
}

function launch(node: string, nodeArgs: string[] = []) {
  // Without node_modules/.bin on PATH: the launcher must not depend on the pinned Node being found.
  return spawnSync(node, [...nodeArgs, LAUNCHER, '--version'], { encoding: 'utf8', env: { ...process.env, PATH: '/usr/bin:/bin' }, timeout: 30_000 });
}

/** Runs the launcher on the pinned Node with process.versions.node reporting `version`. */
function launchAs(version: string) {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '${version}' })`;
  return launch(NODE, ['--import', pretend]);
}

function expectRefused(run: ReturnType<typeof launch>, found: string): void {
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`needs Node.js ${needed} or later, but this is Node.js ${found}`);
  expect(lines[0]).toContain('npx harbor');
  expect(run.stderr).not.toMatch(/node:sqlite|ERR_|\n\s+at /);
}

describe('harbor on an older Node', { timeout: 60_000 }, () => {
  it('package.json engines.node reads ">=X.Y.Z", at least 22.15.0 (node:sqlite unflagged in 22.13, DatabaseSync#isOpen in 22.15)', () => {
    expect(needed, `engines.node is "${engines}"`).toBeDefined();
    expect(older(needed!, '22.15.0')).toBe(false);
  });

  const real = findOlderNode();
  it.skipIf(!real)(`a real older Node (${real?.path} ${real?.version}) gets one line naming both versions and exit 2`, () => {
    expectRefused(launch(real!.path), real!.version);
  });

  it('a Node just below engines.node is refused before the CLI loads', () => {
    const [major, minor] = needed!.split('.').map(Number);
    const below = `${major}.${minor! - 1}.99`;
    expectRefused(launchAs(below), below);
  });

  it.runIf(existsSync(CLI))('exactly engines.node, and a newer major, run the CLI', () => {
    for (const version of [needed!, '99.0.0']) {
      const run = launchAs(version);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^Harbor \d+\.\d+\.\d+/);
      expect(run.status).toBe(0);
    }
  });
});
