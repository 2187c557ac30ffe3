/**
 * The Host commands behind the app's Servers, Tools, Import and Settings views, against a real Host
 * with real fixture servers and real files. Secrets use the in-memory store (the OS keychain is
 * exercised by the secrets tests and the import e2e spec).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../preload/contract';
import { importSources } from '../../main/host/import/import-report';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { CONFIGS } from '../fixtures/configs/load';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FEATURE_SERVER, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';

let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON file read back to assert on its fields
const readConfig = (t: TestHost) => JSON.parse(readFileSync(join(t.dir, 'harbor.json'), 'utf8')) as Record<string, any>;

describe('tools on/off and Harbor-only switches', () => {
  it('turns a tool off and on in the registry without restarting the server', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    const host = current.host;
    await host.servers.startAll();
    const states: string[] = [];
    disposeAfterTest(host.events.onEvent('servers.changed', (e: EventPayload<'servers.changed'>) => {
      if (e.summary) states.push(e.summary.state.kind);
    }));

    expect(await host.registry.setToolEnabled('feature', 'echo', false)).toEqual({ disabledTools: ['echo'] });
    expect(await host.registry.setToolEnabled('feature', 'add', false)).toEqual({ disabledTools: ['add', 'echo'] });
    expect(readConfig(current).mcpServers.feature.disabledTools).toEqual(['add', 'echo']);
    expect(host.settings.chat().disabledTools('feature').has('echo')).toBe(true);

    await host.registry.update('feature', { ...readConfig(current).mcpServers.feature, trusted: true, timeoutMs: 5_000 });
    expect(host.servers.get('feature').trusted).toBe(true);

    expect(await host.registry.setToolEnabled('feature', 'echo', true)).toEqual({ disabledTools: ['add'] });
    expect(await host.registry.setToolEnabled('feature', 'add', true)).toEqual({ disabledTools: [] });
    expect('disabledTools' in readConfig(current).mcpServers.feature).toBe(false);

    // None of these edits stopped or restarted the running server.
    expect(states.every((s) => s === 'ready')).toBe(true);
    expect(host.servers.get('feature').state.kind).toBe('ready');

    // A change to what is launched still restarts it.
    await host.registry.update('feature', { command: NODE, args: [FEATURE_SERVER, '--name', 'other'] });
    await waitFor(() => host.servers.get('feature').serverInfo?.name === 'other', 'the server to come back with its new args', 20_000);
  });

  it('refuses to toggle a tool of an unknown server', async () => {
    current = await createTestHost({});
    await expect(current.host.registry.setToolEnabled('nope', 'echo', false)).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });
});

describe('launch approval from the app', () => {
  it('"Allow launch" approves the exact command line and starts the server', async () => {
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } }, { approveLaunches: false, interactiveConsent: false });
    const host = current.host;
    await host.servers.startAll();
    expect(host.servers.get('feature').state).toMatchObject({ kind: 'error', code: 'CONSENT_REQUIRED' });
    const summary = await host.servers.approveLaunchAndStart('feature');
    expect(summary.state.kind).toBe('ready');
    expect(host.consent.decisions().launches.map((l) => l.server)).toEqual(['feature']);
  });
});

describe('import from another app', () => {
  const CLAUDE = join(CONFIGS, 'claude-desktop', 'claude_desktop_config.json');

  it('previews without writing, then applies: secrets move to the keychain, the file holds references', async () => {
    const secrets = new MemorySecretStore();
    current = await createTestHost({}, { secrets });
    const host = current.host;
    const before = readFileSync(join(current.dir, 'harbor.json'), 'utf8');

    const preview = await host.imports.preview(CLAUDE, false);
    expect(preview).toMatchObject({ label: 'Claude Desktop', dryRun: true, written: false, blocked: false });
    expect(preview.added).toEqual(['filesystem', 'github', 'weather', 'linear', 'legacy-sse', 'streamable', 'paused']);
    expect(preview.secretsMoved).toContainEqual({ server: 'github', where: 'env', key: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: 'github-github_personal_access_token' });
    expect(preview.skipped.map((s) => s.name)).toContain('bad-args');
    expect(preview.servers.find((s) => s.name === 'filesystem')).toMatchObject({ transport: 'stdio', target: expect.stringContaining('npx -y @modelcontextprotocol/server-filesystem') });
    expect(preview.servers.find((s) => s.name === 'paused')?.enabled).toBe(false);
    expect(readFileSync(join(current.dir, 'harbor.json'), 'utf8')).toBe(before);
    expect(await secrets.list()).toEqual([]);
    // Names and places only: no secret value anywhere in what the page receives.
    expect(JSON.stringify(preview)).not.toMatch(/ghp_FAKE|sk-FAKE|FAKE-api-key/);

    const applied = await host.imports.apply(CLAUDE, false);
    expect(applied).toMatchObject({ written: true, dryRun: false });
    expect(JSON.stringify(applied)).not.toMatch(/ghp_FAKE|sk-FAKE|FAKE-api-key/);
    const file = readConfig(current);
    expect(file.mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN).toBe('${secret:github-github_personal_access_token}');
    expect(file.mcpServers['legacy-sse'].headers.Authorization).toMatch(/^Bearer \$\{secret:/);
    expect(await secrets.get('github-github_personal_access_token')).toBe('ghp_FAKEfake0000000000000000000000000000');
    expect(host.servers.list().map((s) => s.name)).toContain('github');

    // A second import is a no-op; a clash without rename is blocked and writes nothing.
    const again = await host.imports.apply(CLAUDE, false);
    expect(again).toMatchObject({ written: false, added: [] });
    await host.registry.update('weather', { command: 'different' });
    const clash = await host.imports.preview(CLAUDE, false);
    expect(clash.blocked).toBe(true);
    expect(clash.clashes).toEqual([{ name: 'weather', suggestedName: 'weather-2', existingTarget: 'different', incomingTarget: 'uvx weather-mcp --port 8080' }]);
    const renamed = await host.imports.apply(CLAUDE, true);
    expect(renamed).toMatchObject({ written: true, added: ['weather-2'], clashes: [{ name: 'weather', renamedTo: 'weather-2' }] });

    // Or the person decides per server: this one skipped, that one renamed to a name they typed.
    await host.registry.update('filesystem', { command: 'other' });
    await host.registry.update('weather-2', { command: 'other' });
    const undecided = await host.imports.preview(CLAUDE, false);
    expect(undecided).toMatchObject({ blocked: true, clashes: [{ name: 'filesystem' }, { name: 'weather' }] });
    const decided = await host.imports.apply(CLAUDE, false, undefined, { filesystem: { action: 'skip' }, weather: { action: 'rename', name: 'weather uv' } });
    expect(decided).toMatchObject({ written: true, blocked: false, added: ['weather uv'], clashes: [{ name: 'filesystem', skipped: true }, { name: 'weather', renamedTo: 'weather uv' }] });
    expect(readConfig(current).mcpServers.filesystem.command).toBe('other');
    expect(readConfig(current).mcpServers['weather uv'].command).toBe('uvx');
  });

  it('says which file could not be read, and refuses a relative path', async () => {
    current = await createTestHost({}, { secrets: new MemorySecretStore() });
    await expect(current.host.imports.preview(join(current.dir, 'missing.json'), false)).rejects.toMatchObject({ code: 'CONFIG_IO', message: expect.stringContaining('no such file') });
    await expect(current.host.imports.preview('claude.json', false)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('lists the default locations and which exist', async () => {
    const home = mkdtempSync(join(tmpdir(), 'harbor-home-'));
    try {
      mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
      writeFileSync(join(home, '.config', 'Claude', 'claude_desktop_config.json'), '{"mcpServers":{}}');
      const sources = await importSources('linux', { HOME: home });
      expect(sources.map((s) => [s.label, s.exists])).toEqual([
        ['Claude Desktop', true],
        ['VS Code', false],
        ['Cursor', false],
      ]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('settings', () => {
  it('stores a new API key in the keychain and writes only its reference', async () => {
    const secrets = new MemorySecretStore();
    current = await createTestHost({}, { secrets });
    const host = current.host;
    expect((await host.settings.get()).model).toBeUndefined();

    const view = await host.settings.setModel({ provider: 'anthropic', model: 'claude-test', apiKeyMode: 'set', apiKey: 'sk-ant-REAL-VALUE-1234' });
    expect(view.model).toEqual({ provider: 'anthropic', model: 'claude-test', apiKey: { kind: 'secret', secret: 'model-anthropic-api-key', set: true } });
    expect(readConfig(current).model).toEqual({ provider: 'anthropic', model: 'claude-test', apiKey: '${secret:model-anthropic-api-key}' });
    expect(await secrets.get('model-anthropic-api-key')).toBe('sk-ant-REAL-VALUE-1234');
    expect(JSON.stringify(view)).not.toContain('sk-ant-REAL');

    // "keep" leaves the key alone while the model changes; "env" removes it.
    await host.settings.setModel({ provider: 'anthropic', model: 'claude-other', apiKeyMode: 'keep' });
    expect(readConfig(current).model.apiKey).toBe('${secret:model-anthropic-api-key}');
    const env = await host.settings.setModel({ provider: 'anthropic', model: 'claude-other', apiKeyMode: 'env' });
    expect(env.model?.apiKey).toEqual({ kind: 'env', variable: 'ANTHROPIC_API_KEY' });

    // A bad entry is refused before anything is stored.
    await expect(host.settings.setModel({ provider: 'openai-compatible', model: 'llama', apiKeyMode: 'set', apiKey: 'k' })).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('baseURL') });
    expect(await secrets.list()).toEqual(['model-anthropic-api-key']);

    const chat = await host.settings.setChat({ toolSearch: 'on', toolSearchThreshold: 0.1 });
    expect(chat.chat).toEqual({ toolSearch: 'on', toolSearchThreshold: 0.1 });
    expect(host.settings.chat().toolSearchThreshold).toBe(0.1);
    await expect(host.settings.setChat({ toolSearchThreshold: 2 })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    // Code mode is a chat setting the app sets too; what the chat reads from the registry follows.
    const code = await host.settings.setChat({ codeMode: 'on' });
    expect(code.chat).toEqual({ codeMode: 'on' });
    expect(readConfig(current).chat).toEqual({ codeMode: 'on' });
    expect(host.settings.chat().codeMode).toBe('on');
    await host.settings.setChat({});
    expect('chat' in readConfig(current)).toBe(false);

    await host.settings.setModel(null);
    expect('model' in readConfig(current)).toBe(false);
  });

  it('keeps consent policy overrides per server and per tool', async () => {
    // Settings are about a configured server (they are keyed by what it runs).
    current = await createTestHost({ feature: { command: NODE, args: [FEATURE_SERVER] } });
    const gate = current.host.consent;
    gate.setPolicy('feature', '*', 'ask');
    gate.setPolicy('feature', 'echo', 'allow');
    expect(gate.policies()).toEqual([
      { server: 'feature', tool: '*', mode: 'ask' },
      { server: 'feature', tool: 'echo', mode: 'allow' },
    ]);
    gate.setPolicy('feature', '*', null);
    expect(gate.policies()).toEqual([{ server: 'feature', tool: 'echo', mode: 'allow' }]);
  });
});

describe('raw registry editing', () => {
  it('shows a broken file as written, with each problem at its line', async () => {
    current = await createTestHost({});
    const path = join(current.dir, 'harbor.json');
    writeFileSync(path, '{\n  "mcpServers": {\n    "x": {\n      "command": "node",\n      "args": [1]\n    }\n  }\n}\n');
    await current.host.registry.reload();
    const view = await current.host.registry.view();
    expect(view.text).toContain('"args": [1]');
    expect(view.problems).toEqual([expect.objectContaining({ path: 'mcpServers.x.args[0]', line: 5 })]);

    const saved = await current.host.registry.saveText('{\n  "mcpServers": {\n    "x": { "url": "ftp://nope" }\n  }\n}');
    expect(saved.saved).toBe(false);
    expect(saved.problems[0]).toMatchObject({ line: 3 });
  });
});
