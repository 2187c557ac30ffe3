/** Conversations outlive the Host: reopened after a restart, listed, renamed, exported, deleted. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host, type HostOptions } from '../../main/host/host';
import { createDispatcher } from '../../main/dispatch';
import { bindCommands } from '../../main/contract-handlers';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { NODE, REPO } from '../helpers/host';
import { featureServer } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

let model: ScriptedModel | undefined;
const hosts: Host[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  model = undefined;
  dir = undefined;
});

async function startHost(options: Partial<HostOptions> = {}): Promise<Host> {
  const host = await Host.create({
    configPath: join(dir!, 'harbor.json'),
    dataDir: dir!,
    appName: 'Harbor',
    appVersion: '0.0.0-test',
    mode: 'cli',
    launchVariables: { node: NODE, resources: join(REPO, 'resources') },
    useLoginShellPath: false,
    approveLaunches: true,
    ...options,
  });
  hosts.push(host);
  return host;
}

describe('conversations', () => {
  it('are reloaded after a restart and go on with the whole history', async () => {
    model = await startScriptedModel({
      script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: 'remember me' } }] }, { text: 'noted' }, { text: 'you said remember me' }],
    });
    dir = mkdtempSync(join(tmpdir(), 'harbor-chat-restart-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { feature: featureServer() }, model: model.modelConfig() }));

    const first = await startHost();
    const turn = await first.chat.send({ text: 'remember this', approveOnce: true });
    expect((await turn.done).status).toBe('completed');
    await first.dispose();

    const second = await startHost();
    const reopened = second.chat.open(turn.conversationId);
    expect(reopened.title).toBe('remember this');
    expect(reopened.turns).toHaveLength(1);
    expect(reopened.turns[0]!.items).toMatchObject([
      { kind: 'user', text: 'remember this' },
      { kind: 'toolCall', call: { server: 'feature', tool: 'echo', arguments: { text: 'remember me' }, status: 'done', approval: 'approved-once' } },
      { kind: 'assistant', text: 'noted' },
    ]);
    const call = reopened.turns[0]!.items[1]!;
    expect(call.kind === 'toolCall' && call.call.endedAt! >= call.call.startedAt).toBe(true);

    const next = await second.chat.send({ conversationId: turn.conversationId, text: 'what did I say?', approveOnce: true });
    expect(await next.done).toMatchObject({ status: 'completed', text: 'you said remember me' });
    const sent = model.requests[2]!;
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent.toolResults[0]!.content).toBe('remember me');

    // After a turn, the page asks for that turn only (fromTurn), not the whole conversation again.
    const dispatch = createDispatcher(bindCommands(second));
    const tail = await dispatch('conversations.open', { id: turn.conversationId, fromTurn: next.turnId });
    expect(tail).toMatchObject({ ok: true, value: { id: turn.conversationId, turnCount: 2, turns: [{ id: next.turnId, status: 'completed' }] } });
    expect((tail as { value: { turns: unknown[] } }).value.turns).toHaveLength(1);
    const whole = await dispatch('conversations.open', { id: turn.conversationId, fromTurn: turn.turnId });
    expect((whole as { value: { turns: Array<{ id: string }> } }).value.turns.map((t) => t.id)).toEqual([turn.turnId, next.turnId]);
    expect(await dispatch('conversations.open', { id: turn.conversationId, fromTurn: 'no-such-turn' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'Turn "no-such-turn" is not on the branch this conversation shows: open it without fromTurn.' },
    });
  });

  it('are listed, renamed, exported (Markdown and JSON) and deleted through the contract', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__echo', arguments: { text: '```nested fence```' } }] }, { text: 'done' }, { text: 'second' }] });
    dir = mkdtempSync(join(tmpdir(), 'harbor-chat-list-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { feature: featureServer() }, model: model.modelConfig() }));
    const host = await startHost();
    const dispatch = createDispatcher(bindCommands(host));

    const a = await host.chat.send({ text: 'first chat', approveOnce: true });
    await a.done;
    const b = await host.chat.send({ text: 'second chat', approveOnce: true });
    await b.done;

    const list = await dispatch('conversations.list', {});
    expect(list).toMatchObject({ ok: true, value: [{ id: b.conversationId, title: 'second chat', turnCount: 1, lastStatus: 'completed' }, { id: a.conversationId }] });

    expect(await dispatch('conversations.rename', { id: a.conversationId, title: '  Renamed  ' })).toMatchObject({ ok: true, value: { title: 'Renamed' } });

    const md = await dispatch('conversations.export', { id: a.conversationId, format: 'markdown' });
    expect(md.ok).toBe(true);
    const markdown = (md as { value: { content: string; filename: string; mimeType: string } }).value;
    expect(markdown.filename).toBe('renamed.md');
    expect(markdown.mimeType).toBe('text/markdown');
    expect(markdown.content).toContain('# Renamed');
    expect(markdown.content).toContain('**You:**\n\nfirst chat');
    expect(markdown.content).toContain('`feature › echo`');
    // Tool output with backticks stays inside a longer fence.
    expect(markdown.content).toContain('````\n```nested fence```\n````');

    const json = await dispatch('conversations.export', { id: a.conversationId, format: 'json' });
    const parsed = JSON.parse((json as { value: { content: string } }).value.content) as { id: string; turns: unknown[] };
    expect(parsed.id).toBe(a.conversationId);
    expect(parsed.turns).toHaveLength(1);

    expect(await dispatch('conversations.delete', { id: a.conversationId })).toEqual({ ok: true, value: { deleted: true } });
    expect(await dispatch('conversations.open', { id: a.conversationId })).toMatchObject({ ok: false, error: { code: 'CONVERSATION_NOT_FOUND' } });
    expect(host.chat.list().map((c) => c.id)).toEqual([b.conversationId]);
  });

  it('chat.send starts a turn and the chat.* events tell how it went', async () => {
    model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'feature__add', arguments: { a: 4, b: 5 } }] }, { text: ['nine', '!'] }] });
    dir = mkdtempSync(join(tmpdir(), 'harbor-chat-events-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { feature: featureServer() }, model: model.modelConfig() }));
    // The app: consent is asked through events (an untrusted server: even read-only tools ask).
    const host = await startHost({ mode: 'web' });
    disposeAfterTest(host.events.onEvent('consent.request', (r) => {
      setTimeout(() => host.consent.respond(r.id, 'conversation'), 20);
    }));
    const seen: string[] = [];
    disposeAfterTest(host.events.on((event, payload) => {
      if (event.startsWith('chat.')) seen.push(event === 'chat.toolCall' ? `chat.toolCall:${(payload as { call: { status: string } }).call.status}` : event);
    }));
    const dispatch = createDispatcher(bindCommands(host));
    const sent = await dispatch('chat.send', { text: 'add 4 and 5' });
    expect(sent).toMatchObject({ ok: true, value: { conversationId: expect.any(String), turnId: expect.any(String) } });
    await new Promise<void>((resolve) => {
      disposeAfterTest(host.events.onEvent('chat.done', () => resolve()));
    });
    expect(seen).toEqual([
      'chat.toolCall:pending',
      'chat.toolCall:running',
      'chat.toolCall:awaiting-consent',
      'chat.toolCall:running',
      'chat.toolCall:done',
      'chat.delta',
      'chat.delta',
      'chat.done',
    ]);
    expect(await dispatch('chat.stop', { conversationId: (sent as { value: { conversationId: string } }).value.conversationId })).toEqual({ ok: true, value: { stopped: false } });
  });
});
