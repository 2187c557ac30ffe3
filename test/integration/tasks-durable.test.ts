/**
 * Tasks outlive Harbor: their ids, server, tool, status and result are kept in the data folder
 * (tasks.db, owner-only), and after a restart the app follows again every task that had not ended.
 * A chat tool call's task that ends after its turn (Harbor stopped mid-task) brings its result into
 * the conversation: the card shows it and the model reads it in the next turn. A real Host in
 * browser mode, restarted over the same data folder; the strict modern fixture over Streamable
 * HTTP (its tasks outlive the client); the scripted model.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatToolCall, TaskView } from '../../preload/contract';
import { Host } from '../../main/host/host';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { NODE, REPO, waitFor } from '../helpers/host';
import { startHttpTasksServer, type RunningHttpServer } from '../helpers/http-server';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

let dir: string | undefined;
/** Where the tasks server writes its events: removed only once that server is gone (it may still be writing). */
let scratch: string | undefined;
let remote: RunningHttpServer | undefined;
let model: ScriptedModel | undefined;
const hosts: Host[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  await remote?.kill();
  await model?.close();
  for (const folder of [dir, scratch]) if (folder) rmSync(folder, { recursive: true, force: true });
  dir = scratch = remote = model = undefined;
});

/** A Host as the app builds one (browser mode), over the test's registry and data folder. */
async function startHarbor(): Promise<Host> {
  const host = await Host.create({
    configPath: join(dir!, 'harbor.json'),
    dataDir: dir!,
    appName: 'Harbor',
    appVersion: '0.0.0-test',
    mode: 'web',
    launchVariables: { node: NODE, resources: join(REPO, 'resources') },
    useLoginShellPath: false,
    approveLaunches: true,
  });
  hosts.push(host);
  return host;
}

async function stopHarbor(host: Host): Promise<void> {
  hosts.splice(hosts.indexOf(host), 1);
  await host.dispose();
}

function registry(extra: Record<string, unknown> = {}): void {
  dir = mkdtempSync(join(tmpdir(), 'harbor-durable-'));
  writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: { tasks: { url: remote!.url, trusted: true } }, ...extra }, null, 2));
}

const events = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);

describe('tasks are durable', () => {
  it('are kept in tasks.db (owner-only), and followed again after a restart until they end', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'harbor-events-'));
    const file = join(scratch, 'events.txt');
    remote = await startHttpTasksServer(['--events-file', file, '--poll-ms=200']);
    registry();
    const first = await startHarbor();
    const updates: TaskView[] = [];
    const call = first.calls.callTool('tasks', 'research', { topic: 'tides', steps: 12, stepMs: 250 }, { consent: { approveOnce: true }, task: { onUpdate: (t) => updates.push(t) } });
    const settled = call.then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await waitFor(() => updates.some((u) => u.statusMessage?.startsWith('Step 2 of 12')), 'the task to run');
    await stopHarbor(first);
    // Harbor stopping is not a cancel: the task goes on on the server.
    expect(await settled).toBe('CANCELLED');
    expect(events(file).some((l) => l.startsWith('task-cancelled'))).toBe(false);
    if (process.platform !== 'win32') expect(statSync(join(dir!, 'tasks.db')).mode & 0o077).toBe(0);

    const second = await startHarbor();
    const [task] = second.tasks.list();
    expect(task).toMatchObject({ server: 'tasks', tool: 'research', era: 'modern' });
    await waitFor(() => second.tasks.list()[0]?.status === 'completed', 'the resumed task to complete', 20_000);
    const { result } = second.tasks.result('tasks', task!.taskId);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Research on tides: done in 12 steps.' }] });
  });

  it('a chat call\'s task that ends after its turn brings its result into the conversation', async () => {
    remote = await startHttpTasksServer(['--poll-ms=200']);
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'tasks__research', arguments: { topic: 'reefs', steps: 12, stepMs: 250 } }] },
        (request) => ({ text: `I read: ${request.messages.map((m) => JSON.stringify(m.content)).join(' ').includes('Research on reefs: done in 12 steps.') ? 'the result' : 'nothing'}` }),
      ],
    });
    registry({ model: model.modelConfig() });
    const first = await startHarbor();
    const cards: ChatToolCall[] = [];
    disposeAfterTest(first.events.onEvent('chat.toolCall', (e) => cards.push(e.call)));
    const turn = await first.chat.send({ text: 'research reefs', approveOnce: true });
    // The card shows the task's live status.
    await waitFor(() => cards.some((c) => c.task?.status === 'working' && c.task.statusMessage?.startsWith('Step 2')), 'the card to show the task', 20_000);
    await stopHarbor(first);
    await turn.done;

    const second = await startHarbor();
    await waitFor(() => second.tasks.list()[0]?.endedAt !== undefined, 'the task to end', 20_000);
    // The stopped turn already carries a note of its own ("Stopped…"): wait for the task's note,
    // which the delivery writes in the same transaction as the card's result, a moment after the
    // task is recorded as ended.
    const lateNote = (i: { kind: string; text?: string }) => i.kind === 'note' && i.text?.includes('finished after this turn ended') === true;
    await waitFor(() => second.chat.open(turn.conversationId).turns[0]!.items.some(lateNote), 'the result to reach the conversation');
    const [shown] = second.chat.open(turn.conversationId).turns;
    // The turn ended with Harbor (stopped; interrupted had Harbor died); the task went on.
    expect(['stopped', 'interrupted']).toContain(shown!.status);
    expect(shown!.items.find((i) => i.kind === 'toolCall')).toMatchObject({ call: { status: 'done', result: { content: [{ type: 'text', text: 'Research on reefs: done in 12 steps.' }], isError: false } } });
    expect(shown!.items.at(-1)).toMatchObject({ kind: 'note', text: expect.stringContaining('finished after this turn ended') });
    // The model reads it in the next turn.
    const next = await second.chat.send({ conversationId: turn.conversationId, text: 'what did you find?', approveOnce: true });
    expect((await next.done).text).toBe('I read: the result');
  });
});
