/**
 * The long-running Host (the app, `harbor web`) watches harbor.json (#31 item 2, #33 finding 2):
 * a server added by hand appears, a removed one stops and disappears, a changed one restarts; an
 * invalid edit keeps the last good registry running and says what is wrong and where, in Harbor's
 * log and as a `registry.changed` event; Harbor's own writes cause no reload. A real Host, real
 * fixture servers, and a second process editing the file. Every wait is for an event.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FEATURE_SERVER, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

const feature = (name: string) => ({ command: NODE, args: [FEATURE_SERVER, '--name', name] });
const stateOf = (t: TestHost, name: string) => t.host.servers.get(name).state.kind;
const names = (t: TestHost) => t.host.servers.list().map((s) => s.name);

/** Another process writes harbor.json, as an editor would (in place), and exits. */
async function editInAnotherProcess(path: string, text: string): Promise<void> {
  const child = spawn(NODE, ['-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', path, text], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
}

function collect(t: TestHost): EventPayload<'registry.changed'>[] {
  const seen: EventPayload<'registry.changed'>[] = [];
  disposeAfterTest(t.host.events.onEvent('registry.changed', (event) => seen.push(event)));
  return seen;
}

describe('the Host follows harbor.json while it runs', () => {
  it('a server added by hand starts, a changed one restarts, a removed one stops and disappears', async () => {
    current = await createTestHost({ keep: feature('keep') }, { mode: 'web' });
    const t = current;
    await t.host.servers.startAll();
    const seen = collect(t);
    const path = join(t.dir, 'harbor.json');

    await editInAnotherProcess(path, JSON.stringify({ mcpServers: { keep: feature('keep'), byHand: feature('byHand') } }, null, 2));
    await waitFor(() => seen.length >= 1, 'the added server to be read', 20_000);
    expect(seen[0]).toEqual({ ok: true, problems: [], started: ['byHand'], restarted: [], stopped: [] });
    await waitFor(() => stateOf(t, 'byHand') === 'ready', 'byHand to be ready', 20_000);

    await editInAnotherProcess(path, JSON.stringify({ mcpServers: { byHand: { ...feature('byHand'), env: { X: '1' } } } }, null, 2));
    await waitFor(() => seen.length >= 2, 'the change to be read', 20_000);
    expect(seen[1]).toEqual({ ok: true, problems: [], started: [], restarted: ['byHand'], stopped: ['keep'] });
    expect(names(t)).toEqual(['byHand']);
  });

  it('an invalid edit keeps the last good registry running and says what is wrong and where', async () => {
    current = await createTestHost({ keep: feature('keep') }, { mode: 'web' });
    const t = current;
    await t.host.servers.startAll();
    const seen = collect(t);
    const path = join(t.dir, 'harbor.json');

    await editInAnotherProcess(path, '{\n  "mcpServers": {\n    "keep": {"command": "node"}\n    "other": {"command": "node"}\n  }\n}\n');
    await waitFor(() => seen.length >= 1, 'the broken file to be read', 20_000);
    expect(seen[0]).toMatchObject({ ok: false, started: [], restarted: [], stopped: [] });
    expect(seen[0]!.problems).toEqual([{ path: '(file)', message: expect.stringContaining('line 4, column 5: expected ","') as unknown, line: 4, column: 5 }]);
    expect(stateOf(t, 'keep')).toBe('ready');
    expect(names(t)).toEqual(['keep']);
    expect(t.host.appInfo().configProblems.join('\n')).toContain('line 4, column 5');
    await waitFor(() => readLog(t).includes('line 4, column 5'), "the problem in Harbor's log");

    // A schema mistake names its path and line too.
    await editInAnotherProcess(path, '{\n  "mcpServers": {\n    "keep": {"command": "node", "args": [1]}\n  }\n}\n');
    await waitFor(() => seen.length >= 2, 'the second broken file to be read', 20_000);
    expect(seen[1]!.problems).toEqual([expect.objectContaining({ path: 'mcpServers.keep.args[0]', line: 3 })]);
    expect(stateOf(t, 'keep')).toBe('ready');

    // Fixed: the problem goes, nothing restarts (the good entry is what was running).
    await editInAnotherProcess(path, JSON.stringify({ mcpServers: { keep: feature('keep') } }));
    await waitFor(() => seen.length >= 3, 'the fixed file to be read', 20_000);
    expect(seen[2]).toEqual({ ok: true, problems: [], started: [], restarted: [], stopped: [] });
    expect(t.host.appInfo().configProblems).toEqual([]);
  });

  it("Harbor's own writes reload nothing", async () => {
    current = await createTestHost({ keep: feature('keep') }, { mode: 'web' });
    const t = current;
    await t.host.servers.startAll();
    const seen = collect(t);
    const path = join(t.dir, 'harbor.json');

    await t.host.registry.add('fromForm', feature('fromForm'));
    await t.host.registry.update('keep', { ...feature('keep'), env: { Y: '2' } });
    // A hand edit after them: the first event the watcher sends must be this one.
    const text = readFileSync(path, 'utf8');
    const file = JSON.parse(text) as { mcpServers: Record<string, unknown> };
    await editInAnotherProcess(path, JSON.stringify({ mcpServers: { ...file.mcpServers, last: feature('last') } }, null, 2));
    await waitFor(() => seen.length >= 1, 'the hand edit to be read', 20_000);
    expect(seen).toEqual([{ ok: true, problems: [], started: ['last'], restarted: [], stopped: [] }]);
  });
});

function readLog(t: TestHost): string {
  try {
    return readFileSync(join(t.dir, 'logs', 'harbor.log'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''; // not written yet: waitFor asks again
    throw error;
  }
}
