/**
 * `harbor tools --search "QUERY" [--limit N] [--json]` on the built CLI, over servers that serve
 * real servers' recorded tool lists: best match first, the same objects as `harbor tools --json`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { NODE } from '../helpers/host';
import { catalogServerScript, loadCatalogs } from '../fixtures/tool-catalogs/relevance';

const catalogs = loadCatalogs().filter((c) => ['github', 'git', 'filesystem', 'slack', 'time'].includes(c.server));
let registry: ReturnType<typeof tempRegistry>;
let g: string[];

beforeAll(() => {
  registry = tempRegistry(Object.fromEntries(catalogs.map((c) => [c.server, { command: NODE, args: [catalogServerScript(), '--catalog', c.path] }])));
  g = ['--config', registry.config, '--data-dir', registry.dir];
});
afterAll(() => registry.remove());

describe('harbor tools --search', () => {
  it('prints the best matches first, each the same object as harbor tools --json (with its server)', async () => {
    const [listed, searched] = await Promise.all([runCli([...g, 'tools', '--json', '--yes']), runCli([...g, 'tools', '--search', 'commit history log', '--json', '--yes'])]);
    expect(searched.code, searched.stderr).toBe(0);
    const [all] = listed.json<Record<string, unknown>[]>();
    const [hits] = searched.json<Record<string, unknown>[]>();
    expect(hits!.length).toBeGreaterThan(1);
    expect(hits!.length).toBeLessThanOrEqual(10);
    expect(hits![0]).toMatchObject({ server: 'git', name: 'git_log' });
    for (const hit of hits!) expect(all).toContainEqual(hit);
  });

  it('--limit N keeps the first N; SERVER searches that server only', async () => {
    const limited = await runCli([...g, 'tools', '--search', 'pull request', '--limit', '3', '--json', '--yes']);
    const [hits] = limited.json<{ server: string; name: string }[]>();
    expect(hits!.map((h) => h.name)).toHaveLength(3);
    const onlySlack = await runCli([...g, 'tools', 'slack', '--search', 'message', '--json', '--yes']);
    const [slack] = onlySlack.json<{ server: string; name: string }[]>();
    expect(slack!.length).toBeGreaterThan(0);
    expect(new Set(slack!.map((h) => h.server))).toEqual(new Set(['slack']));
  });

  it('nothing matching: an empty list and exit 0; the human form says so', async () => {
    const json = await runCli([...g, 'tools', '--search', 'zzzz qqqq', '--json', '--yes']);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual([[]]);
    const human = await runCli([...g, 'tools', '--search', 'current time in Tokyo', '--limit', '1', '--yes']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^time {2}get_current_time {2}Get current time in a specific timezone\n$/);
    const none = await runCli([...g, 'tools', '--search', 'zzzz', '--yes']);
    expect(none.stdout).toBe('(no tools match "zzzz")\n');
  });

  it('--limit without --search, or not a whole number ≥ 1: a usage error (exit 2)', async () => {
    const alone = await runCli([...g, 'tools', '--limit', '3']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--limit goes with --search/);
    const zero = await runCli([...g, 'tools', '--search', 'x', '--limit', '0', '--yes']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--limit must be a whole number from 1 to 1000, got "0"/);
  });
});
