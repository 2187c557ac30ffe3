/**
 * Toolsets and why each tool is or is not offered, on the built CLI over real servers: the feature
 * fixture on stdio and over Streamable HTTP on 127.0.0.1, and a server that cannot start.
 * `harbor tools --json` gains `offered` and `reason` (its other fields unchanged); `--toolset NAME`
 * limits tools, chat and exec; an unknown toolset is exit 2 naming it and the known ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { NODE } from '../helpers/host';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';
import { featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

type Row = { server: string; name?: string; offered: boolean; reason: string | null; state?: { kind: string }; tokens?: number };

let http: RunningHttpServer;
const registries: ReturnType<typeof tempRegistry>[] = [];
let model: ScriptedModel | undefined;

beforeAll(async () => {
  http = await startHttpFeatureServer();
});
afterAll(async () => {
  await http.kill();
  for (const r of registries) r.remove();
});
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const TOOLSETS = { math: ['local/add', 'remote/*'], 'echo-only': ['local/echo'] };

/** A registry: `local` (stdio, "fail" turned off), `remote` (HTTP), optionally `broken`, the toolsets, and extra top-level entries. */
function setup(extra: Record<string, unknown> = {}, withBroken = false): string[] {
  const registry = tempRegistry({
    local: featureServer({ disabledTools: ['fail'] }),
    remote: { url: http.url },
    ...(withBroken ? { broken: { command: NODE, args: ['-e', 'process.exit(3)'] } } : {}),
  });
  registries.push(registry);
  const file = JSON.parse(readFileSync(registry.config, 'utf8')) as Record<string, unknown>;
  writeFileSync(registry.config, JSON.stringify({ ...file, toolsets: TOOLSETS, ...extra }, null, 2));
  return ['--config', registry.config, '--data-dir', registry.dir];
}

function find(rows: Row[], server: string, name?: string): Row | undefined {
  return rows.find((r) => r.server === server && r.name === name);
}

describe('harbor tools --json: offered and reason', () => {
  it('marks each tool offered or not, and why (disabled, server-not-ready with its state), keeping every existing field', async () => {
    const g = setup({}, true);
    const run = await runCli([...g, 'tools', '--json', '--yes']);
    const [rows] = run.json<Row[]>();
    expect(find(rows!, 'local', 'echo')).toMatchObject({ offered: true, reason: null, description: expect.any(String), inputSchema: expect.any(Object), tokens: expect.any(Number) });
    expect(find(rows!, 'remote', 'echo')).toMatchObject({ offered: true, reason: null });
    expect(find(rows!, 'local', 'fail')).toMatchObject({ offered: false, reason: 'disabled' });
    const broken = rows!.find((r) => r.server === 'broken');
    expect(broken).toMatchObject({ offered: false, reason: 'server-not-ready', state: { kind: expect.stringMatching(/error|needs-consent|stopped/) } });
    expect(broken?.name).toBeUndefined();
  });

  it('--toolset NAME: the tools it does not name are outside-toolset', async () => {
    const g = setup();
    const run = await runCli([...g, 'tools', '--json', '--toolset', 'math', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const [rows] = run.json<Row[]>();
    expect(find(rows!, 'local', 'add')).toMatchObject({ offered: true, reason: null });
    expect(find(rows!, 'local', 'echo')).toMatchObject({ offered: false, reason: 'outside-toolset' });
    expect(find(rows!, 'remote', 'echo')).toMatchObject({ offered: true, reason: null });
    // Turned off by the person wins over the toolset.
    expect(find(rows!, 'local', 'fail')).toMatchObject({ offered: false, reason: 'disabled' });
  });

  it('definitions past the budget are deferred: reachable through search_tools, not offered as definitions', async () => {
    const g = setup({ chat: { toolSearch: 'on' } });
    const run = await runCli([...g, 'tools', '--json', '--yes']);
    const [rows] = run.json<Row[]>();
    expect(find(rows!, 'local', 'echo')).toMatchObject({ offered: false, reason: 'deferred' });
    expect(find(rows!, 'local', 'fail')).toMatchObject({ offered: false, reason: 'disabled' });
    const human = await runCli([...g, 'tools', 'local', '--yes']);
    expect(human.stdout).toMatch(/^local {2}echo {2}(?!\[)/m);
    expect(human.stdout).toMatch(/^local {2}fail {2}\[disabled\]/m);
  });

  it('an unknown toolset is exit 2, naming it and listing the known ones (tools, chat, exec)', async () => {
    const g = setup();
    for (const args of [['tools', '--toolset', 'nope'], ['chat', '--toolset', 'nope', 'hi'], ['exec', '--toolset', 'nope', '--types']]) {
      const run = await runCli([...g, ...args]);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain('"nope"');
      expect(run.stderr).toContain('math, echo-only');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('--toolset in chat and code mode', () => {
  it('harbor chat --toolset: the model is offered only the toolset (and run_code, whose API follows it)', async () => {
    model = await startScriptedModel({ script: [{ text: 'ok' }] });
    const g = setup({ model: model.modelConfig(), chat: { codeMode: 'auto' } });
    const run = await runCli([...g, 'chat', '--yes', '--toolset', 'math', 'hi']);
    expect(run.code, run.stderr).toBe(0);
    const offered = model.requests[0]!.toolNames;
    expect([...offered].sort()).toEqual(expect.arrayContaining(['local__add', 'run_code']));
    expect(offered).not.toContain('local__echo');
    expect(offered.filter((n) => n.startsWith('remote__')).length).toBeGreaterThan(3);
    const runCode = model.requests[0]!.tools.find((t) => t.name === 'run_code')!;
    expect(runCode.description).toContain('add');
    expect(runCode.description).not.toMatch(/tools\.local\.echo/);
  });

  it('harbor exec --toolset: the typed API declares only the toolset', async () => {
    const g = setup();
    const run = await runCli([...g, 'exec', '--toolset', 'echo-only', '--types', '--json', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const declarations = run.json<{ declarations: string }>()[0]?.declarations ?? "";
    expect(declarations).toMatch(/echo/);
    expect(declarations).not.toMatch(/\badd\b/);
    expect(declarations).not.toMatch(/remote/);
  });
});
