/**
 * The Host's one tool search with real server processes: it follows each server's tool list as it
 * connects, changes (list_changed) and leaves; `tools.search` answers the app through the
 * contract; the chat's search_tools ranks with the same index.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FEATURE_SERVER, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { catalogServerScript, loadCatalogs } from '../fixtures/tool-catalogs/relevance';

const catalogs = new Map(loadCatalogs().map((c) => [c.server, c]));
const recorded = (server: string) => ({ command: NODE, args: [catalogServerScript(), '--catalog', catalogs.get(server)!.path] });

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

/** Resolves once a catalog change of `server`'s tools has been seen. */
function toolsChanged(test: TestHost, server: string): Promise<void> {
  return new Promise((resolve) => {
    const listening = disposeAfterTest(
      test.host.events.onEvent('servers.changed', (change: EventPayload<'servers.changed'>) => {
        if (change.name === server && change.reason === 'catalog' && change.changed?.includes('tools')) {
          void listening.dispose();
          resolve();
        }
      }),
    );
  });
}

describe("the Host's tool search", () => {
  it('indexes every server as it becomes ready, best match first, with title and description', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] }, github: recorded('github'), filesystem: recorded('filesystem') });
    const { host } = current;
    expect(host.tools.search('pull request')).toEqual([]); // nothing connected yet
    await host.servers.startAll();
    const hits = host.tools.search('create a pull request', 3);
    expect(hits).toHaveLength(3);
    expect(hits[0]).toEqual({ server: 'github', tool: 'create_pull_request', score: expect.any(Number), description: 'Create a new pull request in a GitHub repository' });
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(host.tools.search('read a text file')[0]).toMatchObject({ server: 'filesystem', tool: 'read_text_file', title: 'Read Text File' });
    expect(host.tools.search('echo')[0]).toMatchObject({ server: 'feature', tool: 'echo' });
    expect(host.tools.search('zzzz qqqq')).toEqual([]);
  });

  it("follows list_changed: a changed description, a removed and a restored tool — and a stopped server's tools stay findable", async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    const { host } = current;
    await host.servers.startAll();
    expect(host.tools.search('klingon')).toEqual([]);
    let changed = toolsChanged(current, 'feature');
    await current.call('feature', 'mutate', { description: 'Translate the text into Klingon.' });
    await changed;
    expect(host.tools.search('klingon').map((h) => h.tool)).toEqual(['echo']);

    expect(host.tools.search('add').map((h) => h.tool)).toContain('add');
    changed = toolsChanged(current, 'feature');
    await current.call('feature', 'remove_tool', { name: 'add' });
    await changed;
    expect(host.tools.search('add').map((h) => h.tool)).not.toContain('add');
    changed = toolsChanged(current, 'feature');
    await current.call('feature', 'restore_tool', { name: 'add' });
    await changed;
    expect(host.tools.search('add').map((h) => h.tool)).toContain('add');

    await host.servers.stop('feature');
    expect(host.tools.search('klingon').map((h) => h.tool)).toEqual(['echo']);
  });

  it('a server disabled or removed in the registry leaves the index', async () => {
    current = await createTestHost({ github: recorded('github'), slack: recorded('slack') });
    const { host } = current;
    await host.servers.startAll();
    expect(host.tools.search('post a message to a channel')[0]).toMatchObject({ server: 'slack', tool: 'slack_post_message' });
    await host.registry.update('slack', { ...recorded('slack'), enabled: false });
    expect(host.tools.search('post a message to a channel').map((h) => h.server)).not.toContain('slack');
    expect(host.tools.search('merge a pull request')[0]).toMatchObject({ server: 'github', tool: 'merge_pull_request' });
    await host.registry.remove('github');
    await waitFor(() => !host.servers.names().includes('github'), 'github to leave');
    expect(host.tools.search('merge a pull request')).toEqual([]);
  });

  it('answers the app through the contract: tools.search {query, limit} → [{server, tool, score, …}]', async () => {
    current = await createTestHost({ time: recorded('time'), git: recorded('git') });
    await current.host.servers.startAll();
    const dispatch = createDispatcher(bindCommands(current.host), { checkResponses: true });
    const found = await dispatch('tools.search', { query: 'current time in Tokyo', limit: 1 });
    expect(found).toEqual({ ok: true, value: [{ server: 'time', tool: 'get_current_time', score: expect.any(Number), description: 'Get current time in a specific timezone' }] });
    expect(await dispatch('tools.search', { query: 'commit' })).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ server: 'git', tool: 'git_commit' })]) });
    expect(await dispatch('tools.search', { query: 'x', limit: 0 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    // The Tools page's search box: one server's tools, every word typed, the last one unfinished.
    const typed = await dispatch('tools.search', { query: 'git comm', server: 'git', asYouType: true, limit: 500 });
    expect(typed).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ server: 'git', tool: 'git_commit' })]) });
    expect(typed.ok && (typed.value as { server: string }[]).every((hit) => hit.server === 'git')).toBe(true);
    expect(await dispatch('tools.search', { query: 'get curr', server: 'git', asYouType: true })).toEqual({ ok: true, value: [] });
    expect(await dispatch('tools.search', { query: 'get curr', asYouType: true })).toMatchObject({ ok: true, value: [expect.objectContaining({ server: 'time', tool: 'get_current_time' })] });
  });
});
