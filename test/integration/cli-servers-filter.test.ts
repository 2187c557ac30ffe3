/**
 * `harbor servers NAME…` connects and lists only the servers named (#31 item 22), against real
 * stdio servers: a broken one that is not named is never started, so it neither prints nor
 * decides the exit code; a name that is not in the registry is exit 2 naming the known ones.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE, REPO } from '../helpers/host';

const CATALOG_SERVER = join(FIXTURES, 'legacy/catalog-server.mjs');
const catalog = (name: string) => join(REPO, 'test/fixtures/tool-catalogs/servers', `${name}.json`);
const registry = tempRegistry({
  time: { command: NODE, args: [CATALOG_SERVER, '--catalog', catalog('time')] },
  memory: { command: NODE, args: [CATALOG_SERVER, '--catalog', catalog('memory')] },
  broken: { command: NODE, args: ['-e', 'process.stderr.write("BROKEN-STARTED\\n"); process.exit(3)'] },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

describe('harbor servers NAME…', () => {
  it('connects and prints only the servers named, in the order given', async () => {
    const run = await runCli([...g, '--json', 'servers', 'memory', 'time', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json().map((s) => [s.name, s.state])).toEqual([
      ['memory', 'ready'],
      ['time', 'ready'],
    ]);
    expect(run.stderr).not.toContain('BROKEN-STARTED');
  });

  it('without names still connects every server (the broken one decides the exit code)', async () => {
    const run = await runCli([...g, '--json', 'servers', '--yes']);
    expect(run.json().map((s) => s.name)).toEqual(['time', 'memory', 'broken']);
    expect(run.code).toBe(3);
  });

  it('refuses a name that is not in the registry, with exit 2 and the known names', async () => {
    const run = await runCli([...g, 'servers', 'time', 'nope', '--yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No server named "nope". Known servers: time, memory, broken.');
    expect(run.stdout).toBe('');
  });
});
