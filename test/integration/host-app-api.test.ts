import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { HarborError } from '../../main/host/errors';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FEATURE_SERVER, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('the Host API behind the app views', () => {
  it('adds, edits, renames and removes servers; the file is saved atomically with .bak', async () => {
    current = await createTestHost({ keep: { command: NODE, args: [FEATURE_SERVER] } });
    const host = current.host;
    const configPath = join(current.dir, 'harbor.json');
    await host.servers.startAll();
    const events: EventPayload<'servers.changed'>[] = [];
    disposeAfterTest(host.events.onEvent('servers.changed', (e) => events.push(e)));

    const added = await host.registry.add('second', { command: NODE, args: [FEATURE_SERVER, '--name', 'second'], unknownField: 42 });
    expect(added).toMatchObject({ name: 'second', transport: 'stdio' });
    // The Host runs its enabled servers (startAll above): an added one starts like the others.
    await waitFor(() => host.servers.get('second').state.kind === 'ready', 'the added server to start');
    expect(JSON.parse(readFileSync(configPath, 'utf8')).mcpServers.second.unknownField).toBe(42);
    expect(existsSync(`${configPath}.bak`)).toBe(true);
    // The running server was not touched by an unrelated change.
    expect(host.servers.get('keep').state.kind).toBe('ready');

    await expect(host.registry.add('second', { command: 'x' })).rejects.toMatchObject({ code: 'SERVER_EXISTS' });
    await expect(host.registry.add('bad', { command: NODE, args: [1] })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });

    await host.registry.update('second', { command: NODE, args: [FEATURE_SERVER], trusted: true }, 'renamed');
    expect(host.servers.list().map((s) => s.name)).toEqual(['keep', 'renamed']);
    expect(host.servers.get('renamed').trusted).toBe(true);
    expect(events.some((e) => e.name === 'second' && e.reason === 'removed')).toBe(true);

    expect(await host.registry.remove('renamed')).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(configPath, 'utf8')).mcpServers)).toEqual(['keep']);
  });

  it('raw JSON editing reports problems at the right line and writes nothing', async () => {
    current = await createTestHost({ a: { command: NODE, args: [FEATURE_SERVER] } });
    const configPath = join(current.dir, 'harbor.json');
    const before = readFileSync(configPath, 'utf8');
    const text = ['{', '  "mcpServers": {', '    "a": {', '      "command": "node",', '      "args": ["x", 7]', '    }', '  }', '}'].join('\n');
    const result = await current.host.registry.saveText(text);
    expect(result.saved).toBe(false);
    expect(result.problems).toEqual([{ path: 'mcpServers.a.args[1]', message: expect.stringMatching(/expected string/), line: 5, column: 21 }]);
    // (A trailing comma is fine: harbor.json is JSON with comments. A missing one is not.)
    const syntax = await current.host.registry.saveText('{\n  "mcpServers": {\n    "a": { "command": "node" "args": [] }\n}');
    expect(syntax.saved).toBe(false);
    expect(syntax.problems[0]?.line).toBe(3);
    expect(readFileSync(configPath, 'utf8')).toBe(before);
    const ok = await current.host.registry.saveText('{"mcpServers":{"b":{"url":"http://127.0.0.1:1/mcp"}}}');
    expect(ok).toEqual({ saved: true, problems: [], started: [], restarted: [], hash: expect.stringMatching(/^[a-f0-9]{64}$/) });
    expect(current.host.servers.list().map((s) => s.name)).toEqual(['b']);
  });

  it('in the app, a server asking for input raises elicitation.request, answered by elicitation.respond', async () => {
    current = await createTestHost({ f: { command: NODE, args: [FEATURE_SERVER] } }, { mode: 'web' });
    const host = current.host;
    const asked: EventPayload<'elicitation.request'>[] = [];
    disposeAfterTest(host.events.onEvent('elicitation.request', (request) => {
      asked.push(request);
      expect(host.elicitation.respond('unknown', 'accept', {})).toBe(false);
      host.elicitation.respond(request.id, 'accept', { name: 'Hopper' });
    }));
    const result = await current.call('f', 'ask_name', {});
    expect(JSON.stringify(result.content)).toContain('Hello Hopper');
    expect(asked[0]).toMatchObject({ server: 'f', mode: 'form', message: 'What is your name?' });
    expect(asked[0]?.requestedSchema).toMatchObject({ properties: { name: { type: 'string' } } });
  });

  it('streams the redacted traffic as events and lists it on demand', async () => {
    current = await createTestHost({ f: { command: NODE, args: [FEATURE_SERVER] } });
    const seen: EventPayload<'traffic.message'>[] = [];
    disposeAfterTest(current.host.events.onEvent('traffic.message', (e) => seen.push(e)));
    await current.host.servers.startAll();
    await waitFor(() => seen.some((e) => e.method === 'tools/list' && e.direction === 'out'), 'tools/list on the wire');
    expect(current.host.traffic.list({ server: 'f' }).length).toBe(seen.length);
  });

  it('completion: suggestions from a server that offers them, none from one that does not', async () => {
    current = await createTestHost({
      notes: { command: NODE, args: [join(import.meta.dirname, '../../resources/example-server/notes-server.mjs')], env: { HARBOR_NOTES_DIR: '' } },
      f: { command: NODE, args: [FEATURE_SERVER] },
    });
    const notes = await current.host.calls.complete('notes', { type: 'ref/prompt', name: 'summarize_notes' }, { name: 'style', value: 'b' });
    expect(notes.values).toContain('brief');
    const none = await current.host.calls.complete('f', { type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'A' });
    expect(none.values).toEqual([]);
    await expect(current.host.calls.complete('nope', { type: 'ref/prompt', name: 'x' }, { name: 'y', value: '' })).rejects.toBeInstanceOf(HarborError);
  });
});
