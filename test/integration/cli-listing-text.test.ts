/**
 * The CLI's human listings say what they cut and mark what is special (#31 item 23), against real
 * processes: recorded catalogs of real servers (brave-search's descriptions run to 332 characters)
 * served over stdio, a server whose serverInfo has no version, and the MCP Apps probe server.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE, REPO } from '../helpers/host';

const CATALOG_SERVER = join(FIXTURES, 'legacy/catalog-server.mjs');
const catalog = (name: string) => join(REPO, 'test/fixtures/tool-catalogs/servers', `${name}.json`);
const registry = tempRegistry({
  brave: { command: NODE, args: [CATALOG_SERVER, '--catalog', catalog('brave-search')] },
  unversioned: { command: NODE, args: [CATALOG_SERVER, '--catalog', catalog('time'), '--no-version'] },
  probe: { command: NODE, args: [join(FIXTURES, 'apps/probe-app-server.mjs')] },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

describe('harbor tools: human listing', () => {
  it('ends a description it cuts with an ellipsis, and leaves a short one whole', async () => {
    const run = await runCli([...g, 'tools', 'brave', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const web = run.stdout.split('\n').find((l) => l.startsWith('brave  brave_web_search'));
    expect(web).toMatch(/…$/);
    expect(web!.length).toBeLessThan(140);
    const local = run.stdout.split('\n').find((l) => l.startsWith('brave  brave_local_search'));
    expect(local).toBeDefined();
  });

  it("marks an App's tools, and says which the model is never offered", async () => {
    const run = await runCli([...g, 'tools', 'probe', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const line = (name: string) => run.stdout.split('\n').find((l) => l.startsWith(`probe  ${name}  `) || l === `probe  ${name}`) ?? '';
    expect(line('show_probe')).toContain('[app: ui://probe/app.html]');
    expect(line('show_listed')).toContain('[app: ui://probe/listed.html]');
    expect(line('app_only')).toContain("[for the app only: the model is not offered it]");
    expect(line('model_only')).not.toContain('[app');
  });
});

describe('harbor servers: human listing', () => {
  it('has no doubled space where a server sends no version', async () => {
    const run = await runCli([...g, 'servers', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('unversioned'));
    // Before: "2025-11-25  time   tools 2" (the empty version left a third space).
    expect(line).toMatch(/ 2025-11-25 {2}time {2}tools 2,/);
  });
});
