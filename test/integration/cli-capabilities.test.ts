/**
 * server-everything 2026.8.31's capability tools from the built CLI, as a person runs them, over
 * stdio and Streamable HTTP: `trigger-sampling-request` is declined without --allow-sampling and
 * answered by the scripted model with it; `get-roots-list` shows the registry's roots;
 * `harbor watch` prints the server's log messages as {"event":"log",…} lines
 * (`toggle-simulated-logging`) and a subscribed resource's updates as {"event":"resourceUpdated",…}
 * (`toggle-subscriber-updates` with --resource). Each run is its own connection, so the toggles
 * are called by the watching run itself (--call).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { runCli, tempRegistry } from '../helpers/cli';
import { startEverythingHttp } from '../helpers/everything-http';
import type { RunningHttpServer } from '../helpers/http-server';
import { SIMULATED_LOG } from '../helpers/everything-logs';

const DOCUMENT = 'demo://resource/static/document/architecture.md';
const ROOT = mkdtempSync(join(tmpdir(), 'harbor-cli-root-'));

let http: RunningHttpServer;
let model: ScriptedModel;
let registry: ReturnType<typeof tempRegistry>;
let g: string[];

beforeAll(async () => {
  http = await startEverythingHttp();
  model = await startScriptedModel({ script: [], repeatLast: false });
  registry = tempRegistry({
    stdio: everythingServer({ roots: [ROOT] }),
    http: { url: http.url, roots: [ROOT] },
  });
  const file = JSON.parse(readFileSync(registry.config, 'utf8')) as Record<string, unknown>;
  writeFileSync(registry.config, JSON.stringify({ ...file, model: model.modelConfig() }, null, 2));
  g = ['--config', registry.config, '--data-dir', registry.dir];
});

afterAll(async () => {
  await http.kill();
  await model.close();
  registry.remove();
  rmSync(ROOT, { recursive: true, force: true });
});

describe.each(['stdio', 'http'])('harbor and server-everything over %s', (server) => {
  it('trigger-sampling-request without --allow-sampling: declined, said so on stderr, the model never asked', async () => {
    const before = model.requests.length;
    const run = await runCli([...g, 'call', server, 'trigger-sampling-request', '--args', '{"prompt":"hi","maxTokens":5}', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`declined a sampling request of "${server}": run again with --allow-sampling to let the model answer it.`);
    expect(model.requests.length).toBe(before);
  });

  it('trigger-sampling-request with --allow-sampling: the model answers within maxTokens and it goes back', async () => {
    model.push({ text: 'Hello from the model.' });
    const before = model.requests.length;
    const run = await runCli([...g, 'call', server, 'trigger-sampling-request', '--args', '{"prompt":"hi","maxTokens":5}', '--yes', '--allow-sampling']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Hello from the model.');
    expect(run.stderr).toContain(`"${server}" asked the model (openai-compatible:scripted); its answer (21 characters) was sent back (--allow-sampling).`);
    const asked = model.requests[before]!;
    expect(asked.body.max_tokens ?? asked.body.max_completion_tokens).toBe(5);
  });

  it('get-roots-list: the registry\'s roots as file:// URIs', async () => {
    const run = await runCli([...g, 'call', server, 'get-roots-list', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Current MCP Roots (1 total)');
    expect(run.stdout).toContain(pathToFileURL(ROOT).href);
  });

  it('watch --call toggle-simulated-logging: log messages as {"event":"log",…} lines', async () => {
    // server-everything sends one message at once and then one every 5 s: 6 s hold at least two,
    // so a busy machine that loses the race for the first still sees one.
    const run = await runCli([...g, 'watch', server, '--call', 'toggle-simulated-logging', '--seconds', '6', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('toggle-simulated-logging: Started simulated, random-leveled logging');
    const logs = run.json<{ event: string; level?: string; logger?: string | null; data?: unknown }>().filter((l) => l.event === 'log');
    expect(logs).toContainEqual({ event: 'log', level: expect.any(String), logger: null, data: expect.stringMatching(SIMULATED_LOG) });
    // Roots are synced right after connect; server-everything logs that with its logger's name.
    expect(logs).toContainEqual({ event: 'log', level: 'info', logger: 'everything-server', data: 'Roots updated: 1 root(s) received from client' });
    for (const l of logs) expect(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']).toContain(l.level);
  });

  it('watch --resource URI --call toggle-subscriber-updates: {"event":"resourceUpdated","uri":…}', async () => {
    const run = await runCli([...g, 'watch', server, '--resource', DOCUMENT, '--call', 'toggle-subscriber-updates', '--seconds', '2', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`watching ${server} (${DOCUMENT})`);
    expect(run.json()).toContainEqual({ event: 'resourceUpdated', uri: DOCUMENT });
    // Only the resource asked for was subscribed.
    expect(run.json<{ event: string; uri?: string }>().filter((l) => l.event === 'resourceUpdated' && l.uri !== DOCUMENT)).toEqual([]);
  });
});
