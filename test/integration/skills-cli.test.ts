/**
 * Skills in the `harbor` CLI (the built out/main/cli.js as a child process), against real servers
 * over stdio and Streamable HTTP: `harbor skills [SERVER] --json` (one line per skill), `consent
 * grant-skill` / `revoke-skill`, `consent list` with the pinned digests, and `harbor chat` exiting 4
 * when the model loads a skill no one approved (unless --yes).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';
import { startListeningServer, type RunningHttpServer } from '../helpers/http-server';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

const SERVER = join(FIXTURES, 'modern/skills-server.mjs');
let http: RunningHttpServer;
let registry: ReturnType<typeof tempRegistry> | undefined;
let model: ScriptedModel | undefined;

beforeAll(async () => {
  http = await startListeningServer([SERVER, '--http', '0']);
});
afterAll(async () => {
  await http.kill();
});
afterEach(async () => {
  await model?.close();
  registry?.remove();
  model = undefined;
  registry = undefined;
});

const TRANSPORTS = {
  stdio: () => ({ command: NODE, args: [SERVER] }),
  http: () => ({ url: http.url }),
} as const;

describe.each(Object.keys(TRANSPORTS) as (keyof typeof TRANSPORTS)[])('harbor and skills over %s', (transport) => {
  function setup(extra: Record<string, unknown> = {}): string[] {
    registry = tempRegistry({ skills: TRANSPORTS[transport](), twin: { command: NODE, args: [SERVER, '--set', 'twin'] } });
    const file = JSON.parse(readFileSync(registry.config, 'utf8')) as Record<string, unknown>;
    writeFileSync(registry.config, JSON.stringify({ ...file, ...extra }, null, 2));
    return ['--config', registry.config, '--data-dir', registry.dir];
  }

  it('harbor skills --json prints one JSON line per skill of every server; grant-skill and revoke-skill change "approved"', async () => {
    const flags = setup();
    const listed = await runCli([...flags, 'skills', '--yes', '--json']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const rows = listed.json();
    expect(rows.filter((r) => r.name === 'release-notes').map((r) => r.server).sort()).toEqual(['skills', 'twin']);
    expect(rows.find((r) => r.server === 'skills' && r.name === 'release-notes')).toEqual({
      server: 'skills',
      name: 'release-notes',
      uri: 'skill://release-notes/SKILL.md',
      description: 'Write release notes from a list of merged changes.',
      files: 2,
      bytes: expect.any(Number),
      approved: false,
    });
    expect(rows.find((r) => r.name === 'live-data')).toMatchObject({ files: 'dynamic', verified: false, approved: false });

    const granted = await runCli([...flags, 'consent', 'grant-skill', 'twin', 'skill://release-notes/SKILL.md', '--yes']);
    expect(granted.stderr).toBe('');
    expect(granted.stdout).toContain('Approved the skill skill://release-notes/SKILL.md of "twin"');
    const one = await runCli([...flags, 'skills', 'twin', '--yes', '--json']);
    expect(one.json()).toEqual([expect.objectContaining({ server: 'twin', name: 'release-notes', approved: true })]);
    const list = await runCli([...flags, 'consent', 'list']);
    expect(list.stdout).toMatch(/twin {2}\(skill\) skill:\/\/release-notes\/SKILL\.md {2}skill:\/\/release-notes\/SKILL\.md [0-9a-f]{12}/);
    const listJson = await runCli([...flags, 'consent', 'list', '--json']);
    expect((listJson.json()[0] as { skills: unknown[] }).skills).toEqual([
      expect.objectContaining({ server: 'twin', uri: 'skill://release-notes/SKILL.md', files: [expect.objectContaining({ digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) })] }),
    ]);
    const revoked = await runCli([...flags, 'consent', 'revoke-skill', 'twin', 'skill://release-notes/SKILL.md']);
    expect(revoked.stdout).toContain('Revoked 1 approval');
    expect((await runCli([...flags, 'skills', 'twin', '--yes', '--json'])).json()).toEqual([expect.objectContaining({ approved: false })]);
  });

  it('consent grant-skill without a URI is a usage error naming the fix', async () => {
    const flags = setup();
    const run = await runCli([...flags, 'consent', 'grant-skill', 'twin']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('consent grant-skill needs SERVER and URI');
  });

  it('harbor chat exits 4 when the model loads an unapproved skill, and loads it with --yes', async () => {
    const load = { toolCalls: [{ name: 'load_skill', arguments: { server: 'skills', name: 'release-notes' } }] };
    model = await startScriptedModel({ script: [load, load, { text: 'done' }] });
    const flags = setup({ model: model.modelConfig() });
    const refused = await runCli([...flags, 'chat', '--json', 'write release notes'], { timeoutMs: 120_000 });
    expect(refused.code).toBe(4);
    expect(refused.json().at(-1)).toMatchObject({ error: { code: 'CONSENT_REQUIRED' } });
    const allowed = await runCli([...flags, 'chat', '--yes', '--json', 'write release notes'], { timeoutMs: 120_000 });
    expect(allowed.code).toBe(0);
    expect(model.requests.at(-1)!.toolResults[0]!.content).toContain('Group changes by kind');
  });
});
