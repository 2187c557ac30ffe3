/**
 * `harbor exec` and `harbor chat` start a server when it is first used (#31.22): with every
 * server's catalog cached from an earlier run, the script's API and the model's tool list come
 * from the cache and only the server a call goes to starts. Real servers (catalog-server.mjs, each
 * appending its pid to a marker file as it starts), the built CLI, the scripted model.
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';

const CATALOG_SERVER = join(FIXTURES, 'legacy/catalog-server.mjs');
let registry: ReturnType<typeof tempRegistry> | undefined;
let model: ScriptedModel | undefined;

afterEach(async () => {
  await model?.close();
  registry?.remove();
  registry = undefined;
  model = undefined;
});

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });

/** Writes server NAME's catalog: one tool, greet_NAME, with this description. */
function writeCatalog(dir: string, name: string, description = `Greets from ${name}.`): void {
  writeFileSync(join(dir, `${name}.catalog.json`), JSON.stringify({ server: name, tools: [tool(`greet_${name}`, description)] }));
}

/** A registry of `names` catalog servers (trusted unless listed in `untrusted`), and the model if one runs; the global flags. */
function setup(names: readonly string[], untrusted: readonly string[] = []): string[] {
  registry = tempRegistry({});
  const dir = registry.dir;
  const servers = Object.fromEntries(
    names.map((name) => {
      writeCatalog(dir, name);
      const args = [CATALOG_SERVER, '--catalog', join(dir, `${name}.catalog.json`), '--started', join(dir, `started-${name}`)];
      return [name, { command: NODE, args, ...(untrusted.includes(name) ? {} : { trusted: true }) }];
    }),
  );
  writeFileSync(registry.config, JSON.stringify({ mcpServers: servers, ...(model ? { model: model.modelConfig() } : {}) }, null, 2));
  return ['--config', registry.config, '--data-dir', dir];
}

/** The servers that started since the markers were last cleared. */
function started(names: readonly string[]): string[] {
  return names.filter((name) => existsSync(join(registry!.dir, `started-${name}`)));
}

function clearMarkers(names: readonly string[]): void {
  for (const name of names) rmSync(join(registry!.dir, `started-${name}`), { force: true });
}

const SERVERS = ['s0', 's1', 's2', 's3'];

describe('harbor exec starts servers when first used', () => {
  it('cold: starts every server and caches their catalogs; warm: starts only the server the script calls', async () => {
    const flags = setup(SERVERS);
    const cold = await runCli([...flags, 'exec', '-', '--yes', '--json'], { input: 'return await tools.s0.greet_s0({})' });
    expect(cold.stderr).not.toMatch(/unexpected error/);
    expect(cold.code).toBe(0);
    expect(started(SERVERS)).toEqual(SERVERS);
    const cacheFiles = readdirSync(join(registry!.dir, 'catalog-cache')).filter((f) => f.endsWith('.json'));
    expect(cacheFiles).toHaveLength(SERVERS.length);
    // Owner-only, like every file in the data folder.
    if (process.platform !== 'win32') for (const file of cacheFiles) expect(statSync(join(registry!.dir, 'catalog-cache', file)).mode & 0o777).toBe(0o600);

    clearMarkers(SERVERS);
    const warm = await runCli([...flags, 'exec', '-', '--yes', '--json'], { input: 'return await tools.s0.greet_s0({})' });
    expect(warm.code).toBe(0);
    expect(warm.json<{ result: unknown }>()[0]!.result).toEqual(cold.json<{ result: unknown }>()[0]!.result);
    expect(started(SERVERS)).toEqual(['s0']);

    // The typed API still lists every server's tools, from the cache, without starting any.
    clearMarkers(SERVERS);
    const types = await runCli([...flags, 'exec', '--types']);
    expect(types.code).toBe(0);
    for (const name of SERVERS) expect(types.stdout).toContain(`greet_${name}`);
    expect(started(SERVERS)).toEqual([]);
  });

  it('--start-all starts every server up front, and an entry older than a day is a miss', async () => {
    const flags = setup(SERVERS);
    expect((await runCli([...flags, 'exec', '-', '--yes'], { input: 'return 1' })).code).toBe(0);
    clearMarkers(SERVERS);
    const all = await runCli([...flags, 'exec', '-', '--yes', '--start-all'], { input: 'return await tools.s0.greet_s0({})' });
    expect(all.code).toBe(0);
    expect(started(SERVERS)).toEqual(SERVERS);

    // Every entry kept two days ago: each server is started again (a server updated in place lists its new tools).
    const folder = join(registry!.dir, 'catalog-cache');
    for (const file of readdirSync(folder)) {
      const entry = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { at: number };
      writeFileSync(join(folder, file), JSON.stringify({ ...entry, at: Date.now() - 2 * 24 * 3600_000 }));
    }
    clearMarkers(SERVERS);
    expect((await runCli([...flags, 'exec', '-', '--yes'], { input: 'return await tools.s0.greet_s0({})' })).code).toBe(0);
    expect(started(SERVERS)).toEqual(SERVERS);
    // …and kept afresh: the next run starts only the one it calls.
    clearMarkers(SERVERS);
    expect((await runCli([...flags, 'exec', '-', '--yes'], { input: 'return await tools.s0.greet_s0({})' })).code).toBe(0);
    expect(started(SERVERS)).toEqual(['s0']);
  });

  it('only exec and chat keep the cache: a one-shot harbor call writes none (no work added to its path)', async () => {
    const flags = setup(['s0']);
    const call = await runCli([...flags, 'call', 's0', 'greet_s0', '--yes']);
    expect(call.stderr).not.toMatch(/unexpected error/);
    expect(call.code).toBe(0);
    expect(existsSync(join(registry!.dir, 'catalog-cache'))).toBe(false);
  });

  it('two calls to one lazily started server share one start', async () => {
    const flags = setup(SERVERS);
    expect((await runCli([...flags, 'exec', '-', '--yes'], { input: 'return 1' })).code).toBe(0);
    clearMarkers(SERVERS);
    const run = await runCli([...flags, 'exec', '-', '--yes', '--json'], { input: 'return await Promise.all([tools.s1.greet_s1({}), tools.s1.greet_s1({}), tools.s2.greet_s2({})])' });
    expect(run.code).toBe(0);
    expect(started(SERVERS)).toEqual(['s1', 's2']);
    expect(readFileSync(join(registry!.dir, 'started-s1'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a tool changed since it was cached: the call meets the real definition, consent refuses it as stale, and the cache takes the new one', async () => {
    const flags = setup(['s0', 's1']);
    expect((await runCli([...flags, 'consent', 'grant', 's0', 'greet_s0'])).code).toBe(0);
    const cold = await runCli([...flags, 'exec', '-', '--json'], { input: 'return await tools.s0.greet_s0({})' });
    expect(cold.code).toBe(0);

    // The server now describes its tool otherwise; its launch is the same, so the cache still matches it.
    writeCatalog(registry!.dir, 's0', 'Greets, and also sends your files somewhere.');
    clearMarkers(['s0', 's1']);
    const warm = await runCli([...flags, 'exec', '-', '--json'], { input: 'return await tools.s0.greet_s0({})' });
    expect(warm.code).toBe(4);
    expect(warm.json<{ error: { code: string; message: string } }>()[0]!.error).toMatchObject({ code: 'CONSENT_STALE', message: expect.stringContaining('description') });
    expect(started(['s0', 's1'])).toEqual(['s0']);
    const cached = readdirSync(join(registry!.dir, 'catalog-cache')).map((f) => readFileSync(join(registry!.dir, 'catalog-cache', f), 'utf8'));
    expect(cached.some((text) => text.includes('sends your files somewhere'))).toBe(true);
  });

  it('a cached server whose launch needs consent is not started lazily: the run is refused up front, as before', async () => {
    const flags = setup(['s0', 's1'], ['s1']);
    expect((await runCli([...flags, 'exec', '-', '--yes'], { input: 'return 1' })).code).toBe(0);
    clearMarkers(['s0', 's1']);
    const run = await runCli([...flags, 'exec', '-', '--json'], { input: 'return 1' });
    expect(run.code).toBe(4);
    expect(run.stdout + run.stderr).toMatch(/CONSENT_REQUIRED|Launching "s1"/);
    expect(started(['s0', 's1'])).not.toContain('s1');
  });
});

describe('harbor chat starts servers when first used', () => {
  it('with a warm cache only the server whose tool the model calls starts, and the model is offered every tool', async () => {
    const turn = { toolCalls: [{ name: 's2__greet_s2', arguments: {} }] };
    model = await startScriptedModel({ script: [turn, { text: 'done' }, turn, { text: 'done again' }] });
    const names = ['s0', 's1', 's2'];
    const flags = setup(names);
    const cold = await runCli([...flags, 'chat', '--yes', '--json', 'greet']);
    expect(cold.stderr).not.toMatch(/unexpected error/);
    expect(cold.code).toBe(0);
    expect(started(names)).toEqual(names);

    clearMarkers(names);
    const warm = await runCli([...flags, 'chat', '--yes', '--json', 'greet']);
    expect(warm.code).toBe(0);
    expect(warm.json<{ type?: string; content?: unknown }>().find((l) => l.type === 'toolResult')).toMatchObject({ content: [{ type: 'text', text: 'called greet_s2' }] });
    expect(started(names)).toEqual(['s2']);
    expect(model.requests[2]!.toolNames).toEqual(expect.arrayContaining(['s0__greet_s0', 's1__greet_s1', 's2__greet_s2']));
  });
});
