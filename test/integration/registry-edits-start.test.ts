/**
 * Once a front door runs the enabled servers (startAll: the app, browser mode), every way of
 * editing the registry starts and restarts them the same way: the form (registry.add/update), the
 * raw JSON editor (registry.saveText), an import. A server the person stopped stays stopped; the
 * CLI, which never calls startAll, starts nothing by itself. A launch that fails is kept for the
 * Activity view and announced as servers.launchFailed. Real Host, real fixture servers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FEATURE_SERVER, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

const feature = (name: string) => ({ command: NODE, args: [FEATURE_SERVER, '--name', name] });
const stateOf = (t: TestHost, name: string) => t.host.servers.get(name).state.kind;
const untilReady = (t: TestHost, name: string) => waitFor(() => stateOf(t, name) === 'ready', `${name} to be ready`, 20_000);

function jsonWith(t: TestHost, servers: Record<string, unknown>): string {
  const file = JSON.parse(readFileSync(join(t.dir, 'harbor.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
  return JSON.stringify({ ...file, mcpServers: { ...file.mcpServers, ...servers } }, null, 2);
}

describe('registry edits in the app start what is enabled, whichever way they are made', () => {
  it('a server added in the raw JSON editor starts (and says so), like one added in the form', async () => {
    current = await createTestHost({ keep: feature('keep') }, { mode: 'web' });
    await current.host.servers.startAll();
    expect(stateOf(current, 'keep')).toBe('ready');

    const saved = await current.host.registry.saveText(jsonWith(current, { fromJson: feature('fromJson'), off: { ...feature('off'), enabled: false } }));
    expect(saved).toEqual({ saved: true, problems: [], started: ['fromJson'], restarted: [], hash: expect.stringMatching(/^[a-f0-9]{64}$/) });
    await untilReady(current, 'fromJson');
    expect(stateOf(current, 'off')).toBe('stopped');
    expect(stateOf(current, 'keep')).toBe('ready');

    const added = await current.host.registry.add('fromForm', feature('fromForm'));
    expect(added.state.kind).not.toBe('stopped');
    await untilReady(current, 'fromForm');
  });

  it('turning a server on starts it; changing a running one restarts it; one the person stopped stays stopped', async () => {
    current = await createTestHost({ a: feature('a'), b: { ...feature('b'), enabled: false }, c: feature('c') }, { mode: 'web' });
    await current.host.servers.startAll();
    await current.host.servers.stop('c');

    const turnedOn = await current.host.registry.saveText(jsonWith(current, { b: feature('b') }));
    expect(turnedOn.started).toEqual(['b']);
    await untilReady(current, 'b');

    const changed = await current.host.registry.saveText(jsonWith(current, { a: { ...feature('a'), env: { X: '1' } }, c: { ...feature('c'), env: { X: '1' } } }));
    expect(changed).toMatchObject({ saved: true, started: [], restarted: ['a'] });
    expect(stateOf(current, 'a')).toBe('ready');
    expect(stateOf(current, 'c')).toBe('stopped');
  });

  it('a server that failed to start gets a new start once its entry is fixed, and the failure is kept and announced', async () => {
    current = await createTestHost({ broken: { command: 'harbor-test-no-such-program' } }, { mode: 'web' });
    const failed: EventPayload<'servers.launchFailed'>[] = [];
    disposeAfterTest(current.host.events.onEvent('servers.launchFailed', (event) => failed.push(event)));
    await current.host.servers.startAll();
    expect(stateOf(current, 'broken')).toBe('error');
    expect(failed).toEqual([expect.objectContaining({ name: 'broken', code: 'SPAWN_FAILED', message: expect.stringContaining('harbor-test-no-such-program') })]);
    expect(current.host.servers.launchFailures()).toEqual(failed);

    const fixed = await current.host.registry.update('broken', feature('broken'));
    expect(fixed.state.kind).not.toBe('error');
    await untilReady(current, 'broken');
  });

  it('an imported server starts too', async () => {
    current = await createTestHost({}, { mode: 'web', secrets: new MemorySecretStore() });
    await current.host.servers.startAll();
    const file = join(current.dir, 'claude.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { imported: feature('imported') } }));
    await current.host.imports.apply(file, false);
    await untilReady(current, 'imported');
  });

  it('without startAll (the CLI) an edit starts nothing', async () => {
    current = await createTestHost({});
    const saved = await current.host.registry.saveText(jsonWith(current, { quiet: feature('quiet') }));
    expect(saved).toEqual({ saved: true, problems: [], started: [], restarted: [], hash: expect.stringMatching(/^[a-f0-9]{64}$/) });
    expect((await current.host.registry.add('alsoQuiet', feature('alsoQuiet'))).state.kind).toBe('stopped');
    expect(stateOf(current, 'quiet')).toBe('stopped');
  });
});

describe('the raw JSON editor checks as the person types', () => {
  it('registry.check reports what saving would, with lines, and writes nothing', async () => {
    current = await createTestHost({ a: feature('a') });
    const before = readFileSync(join(current.dir, 'harbor.json'), 'utf8');
    const text = ['{', '  "mcpServers": {', '    "a": { "command": 7 }', '  }', '}'].join('\n');
    expect(current.host.registry.check(text)).toEqual({ problems: [expect.objectContaining({ path: 'mcpServers.a.command', line: 3 })] });
    expect(current.host.registry.check(before)).toEqual({ problems: [] });
    expect(readFileSync(join(current.dir, 'harbor.json'), 'utf8')).toBe(before);
  });
});

describe('sign-in status', () => {
  it('applies only to a remote server without a fixed Authorization header, and is off until signed in', async () => {
    current = await createTestHost(
      {
        local: feature('local'),
        open: { url: 'http://127.0.0.1:9/mcp' },
        fixed: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
      },
      { secrets: new MemorySecretStore() },
    );
    expect(await current.host.auth.status('local')).toEqual({ usesSignIn: false, signedIn: false });
    expect(await current.host.auth.status('fixed')).toEqual({ usesSignIn: false, signedIn: false });
    expect(await current.host.auth.status('open')).toEqual({ usesSignIn: true, signedIn: false });
    await expect(current.host.auth.status('nope')).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });
});
