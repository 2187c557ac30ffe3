/**
 * `harbor chat` as a person or a script runs it: the built CLI (out/main/cli.js) as a child process,
 * real servers, the scripted model on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, tempRegistry } from '../helpers/cli';
import { NODE, waitFor } from '../helpers/host';
import { everythingServer, featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';
import { ConversationStore } from '../../main/host/chat/conversations/store';

let model: ScriptedModel | undefined;
let registry: ReturnType<typeof tempRegistry> | undefined;

afterEach(async () => {
  await model?.close();
  registry?.remove();
  model = undefined;
  registry = undefined;
});

/** A registry with these servers and the scripted model; returns the global flags for it. */
function setup(servers: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}): string[] {
  registry = tempRegistry(servers);
  const file = JSON.parse(readFileSync(registry.config, 'utf8')) as Record<string, unknown>;
  writeFileSync(registry.config, JSON.stringify({ ...file, ...(model ? { model: model.modelConfig() } : {}), ...extra }, null, 2));
  return ['--config', registry.config, '--data-dir', registry.dir];
}

type Line = Record<string, unknown> & { type?: string };

describe('harbor chat', () => {
  it('runs one turn with --yes and prints one JSON event per line', async () => {
    model = await startScriptedModel({
      script: [{ text: 'Echoing. ', toolCalls: [{ name: 'feature__echo', arguments: { text: 'hello cli' } }] }, { text: ['All ', 'done.'] }],
    });
    const flags = setup({ feature: featureServer() });
    const run = await runCli([...flags, 'chat', '--yes', '--json', 'echo hello cli']);
    expect(run.stderr).not.toMatch(/unexpected error/);
    expect(run.code).toBe(0);
    const lines = run.json<Line>();
    expect(lines.map((l) => l.type)).toEqual(['text', 'toolCall', 'toolResult', 'text', 'text', 'done']);
    const call = lines[1]!;
    expect(call).toEqual({ type: 'toolCall', id: expect.any(String), server: 'feature', tool: 'echo', arguments: { text: 'hello cli' } });
    expect(lines[2]).toEqual({ type: 'toolResult', id: call.id, content: [{ type: 'text', text: 'hello cli' }], isError: false });
    expect(lines.at(-1)).toMatchObject({ type: 'done', text: 'All done.', status: 'completed', conversationId: expect.any(String) });
  });

  it('prints the answer on stdout and tool activity on stderr without --json', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__add', arguments: { a: 1, b: 2 } }] }, { text: 'The sum is 3.\nBye.' }] });
    const flags = setup({ feature: featureServer() });
    const run = await runCli([...flags, 'chat', '--yes', 'add 1 and 2']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('The sum is 3.\nBye.\n');
    expect(run.stderr).toContain('→ feature › add {"a":1,"b":2}');
    expect(run.stderr).toMatch(/conversation [0-9a-f-]{36}/);
  });

  it('exits 4 with CONSENT_REQUIRED when a call needs consent and --yes is absent', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'x' } }] }, { text: 'unreached' }] });
    // Trusted: launching it needs no consent, so the tool call is what asks.
    const flags = setup({ feature: featureServer({ trusted: true }) });
    const run = await runCli([...flags, 'chat', '--json', 'echo x']);
    expect(run.code).toBe(4);
    const lines = run.json<Line>();
    expect(lines.at(-1)).toMatchObject({ error: { code: 'CONSENT_REQUIRED' } });
    expect(lines.find((l) => l.type === 'done')).toMatchObject({ status: 'consentRequired' });
    expect(model.requests).toHaveLength(1);
  });

  it('exits 4 before asking the model when launching an untrusted server needs consent', async () => {
    model = await startScriptedModel({ script: [{ text: 'unreached' }] });
    const flags = setup({ feature: featureServer() });
    const run = await runCli([...flags, 'chat', '--json', 'hi']);
    expect(run.code).toBe(4);
    expect(run.json<Line>().at(-1)).toMatchObject({ error: { code: 'CONSENT_REQUIRED' } });
    expect(model.requests).toHaveLength(0);
  });

  it('continues a conversation with --conversation, sending the earlier turns', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'first' } }] }, { text: 'one' }, { text: 'two' }] });
    const flags = setup({ feature: featureServer() });
    const first = await runCli([...flags, 'chat', '--yes', '--json', 'first message']);
    expect(first.code).toBe(0);
    const id = first.json<Line>().at(-1)!.conversationId as string;
    const second = await runCli([...flags, 'chat', '--yes', '--json', '--conversation', id.slice(0, 8), 'second message']);
    expect(second.code).toBe(0);
    expect(second.json<Line>().at(-1)).toMatchObject({ conversationId: id, text: 'two' });
    const roles = model.requests[2]!.messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(model.requests[2]!.toolResults[0]!.content).toBe('first');
  });

  it('answers a server\'s elicitation from --answer', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__ask_name', arguments: {} }] }, { text: 'hi Ada' }] });
    const flags = setup({ feature: featureServer() });
    const run = await runCli([...flags, 'chat', '--yes', '--json', '--answer', '{"name":"Ada"}', 'ask my name']);
    expect(run.code).toBe(0);
    expect(run.json<Line>().find((l) => l.type === 'toolResult')).toMatchObject({ content: [{ type: 'text', text: 'Hello Ada' }], isError: false });
  });

  it('explains how to add a model when none is configured (exit 2)', async () => {
    const flags = setup({ feature: featureServer() });
    const run = await runCli([...flags, 'chat', '--json', 'hi']);
    expect(run.code).toBe(2);
    expect(run.json<Line>()[0]).toMatchObject({ error: { code: 'MODEL_NOT_CONFIGURED' } });
    expect(run.stderr).toMatch(/No chat model is configured/);
    expect(run.stderr).toContain('"model"');
  });

  it('Ctrl-C mid-tool cancels the call on the server and exits 130', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__slow', arguments: { steps: 100, delayMs: 100 } }] }, { text: 'unreached' }] });
    const events = () => join(registry!.dir, 'events.txt');
    const flags = setup({ feature: featureServer({}, ['--events-file', join('${harbor:data}', 'events.txt')]) });
    const child = spawn(NODE, [CLI, ...flags, 'chat', '--yes', '--json', 'count slowly'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => stdout.includes('"type":"toolCall"'), `the slow tool call (stderr: ${stderr})`, 20_000);
    // The toolCall line is printed before the request is written: Ctrl-C once the server runs it.
    await waitFor(() => existsSync(events()) && /started/.test(readFileSync(events(), 'utf8')), 'the server to start the call', 20_000);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    await waitFor(() => existsSync(events()) && /cancelled/.test(readFileSync(events(), 'utf8')), 'the server to record the cancellation');
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);
    expect(lines.find((l) => l.type === 'toolResult')).toMatchObject({ isError: true });
    expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'stopped' });
  });

  it('a crash mid-turn loses only that turn: the conversation reopens and goes on', async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'feature__echo', arguments: { text: 'kept' } }] },
        { text: 'first answer' },
        { toolCalls: [{ name: 'feature__slow', arguments: { steps: 100, delayMs: 100 } }] },
        { text: 'after the crash' },
      ],
    });
    const flags = setup({ feature: featureServer() });
    const first = await runCli([...flags, 'chat', '--yes', '--json', 'one']);
    const id = first.json<Line>().at(-1)!.conversationId as string;

    const child = spawn(NODE, [CLI, ...flags, 'chat', '--yes', '--json', '--conversation', id, 'two'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await waitFor(() => stdout.includes('"type":"toolCall"'), 'the slow call to start', 20_000);
    child.kill('SIGKILL');
    await exited;

    const store = new ConversationStore(join(registry!.dir, 'conversations.db'));
    try {
      const conversation = store.conversation(id);
      expect(conversation.turns.map((t) => t.status)).toEqual(['completed', 'interrupted']);
      expect(conversation.turns[0]!.items.map((i) => i.kind)).toEqual(['user', 'toolCall', 'assistant']);
      expect(conversation.turns[1]!.items.find((i) => i.kind === 'toolCall')).toMatchObject({ call: { tool: 'slow', status: 'error' } });
    } finally {
      store.dispose();
    }
    const third = await runCli([...flags, 'chat', '--yes', '--json', '--conversation', id, 'three']);
    expect(third.code).toBe(0);
    expect(third.json<Line>().at(-1)).toMatchObject({ text: 'after the crash' });
    // The history sent is valid: the crashed turn contributes its user message only.
    expect(model.requests.at(-1)!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'user']);
    // The SIGKILLed CLI could not stop its server: it was the fixture, which exits on stdin EOF.
  }, 60_000); // three CLI runs, a crash and a reopen: 15 s here unloaded

  it('servers --json and tools --json report token costs (o200k_base) for server-everything', async () => {
    const flags = setup({ everything: everythingServer({ sampling: 'deny' }) });
    const servers = await runCli([...flags, 'servers', '--yes', '--json']);
    expect(servers.code).toBe(0);
    const line = servers.json<Line>()[0]!;
    // Measured on @modelcontextprotocol/server-everything@2026.8.31 with elicitation form + url and tasks, sampling denied (16 tools).
    expect(line.toolTokens as number).toBeGreaterThanOrEqual(1374 * 0.9);
    expect(line.toolTokens as number).toBeLessThanOrEqual(1374 * 1.1);
    expect(line.instructionTokens as number).toBeGreaterThanOrEqual(312 * 0.9);
    expect(line.instructionTokens as number).toBeLessThanOrEqual(312 * 1.1);
    const tools = await runCli([...flags, 'tools', '--yes', '--json']);
    expect(tools.code).toBe(0);
    const rows = tools.json<{ name: string; tokens: number }[]>()[0]!;
    expect(rows).toHaveLength(16);
    expect(rows.every((r) => Number.isInteger(r.tokens) && r.tokens > 0)).toBe(true);
    expect(rows.reduce((n, r) => n + r.tokens, 0)).toBe(line.toolTokens);
  });
});
