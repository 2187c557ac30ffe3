/**
 * A damaged catalog cache (#31.22) never blocks `harbor exec`: random bytes, cut-off JSON or an
 * entry of another shape are each a cache miss written to Harbor's log, the server is started up
 * front as without a cache, and the run writes a good entry again. Real servers, the built CLI.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';

const CATALOG_SERVER = join(FIXTURES, 'legacy/catalog-server.mjs');
const NAMES = ['s0', 's1', 's2'];
let registry: ReturnType<typeof tempRegistry> | undefined;

afterEach(() => {
  registry?.remove();
  registry = undefined;
});

function setup(): string[] {
  registry = tempRegistry({});
  const dir = registry.dir;
  const servers = Object.fromEntries(
    NAMES.map((name) => {
      const catalog = join(dir, `${name}.catalog.json`);
      writeFileSync(catalog, JSON.stringify({ server: name, tools: [{ name: `greet_${name}`, description: 'Greets.', inputSchema: { type: 'object', properties: {} } }] }));
      return [name, { command: NODE, args: [CATALOG_SERVER, '--catalog', catalog, '--started', join(dir, `started-${name}`)], trusted: true }];
    }),
  );
  writeFileSync(registry.config, JSON.stringify({ mcpServers: servers }, null, 2));
  return ['--config', registry.config, '--data-dir', dir];
}

const started = () => NAMES.filter((name) => existsSync(join(registry!.dir, `started-${name}`)));
const clearMarkers = () => NAMES.forEach((name) => rmSync(join(registry!.dir, `started-${name}`), { force: true }));
const exec = (flags: string[]) => runCli([...flags, 'exec', '-', '--yes', '--json'], { input: 'return await tools.s0.greet_s0({})' });

describe('a damaged catalog cache', () => {
  it('is a miss, logged, the servers start up front, and the run writes good entries again', async () => {
    const flags = setup();
    expect((await exec(flags)).code).toBe(0);
    const folder = join(registry!.dir, 'catalog-cache');
    const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(3);
    const damage = [randomBytes(200), '{"server": "s1", "version": 1, "tools": [', JSON.stringify({ server: 's2', version: 1, tools: 'not a list' })];
    files.forEach((file, i) => writeFileSync(join(folder, file), damage[i]!));

    clearMarkers();
    const run = await exec(flags);
    expect(run.stderr).not.toMatch(/unexpected error/);
    expect(run.code).toBe(0);
    expect(started()).toEqual(NAMES);
    const log = readFileSync(join(registry!.dir, 'logs', 'harbor.log'), 'utf8');
    expect(log.split('\n').filter((line) => line.includes('catalog cache') && line.includes('damaged'))).toHaveLength(3);

    // Written again: the next run starts only the server it calls.
    clearMarkers();
    expect((await exec(flags)).code).toBe(0);
    expect(started()).toEqual(['s0']);
  });
});
