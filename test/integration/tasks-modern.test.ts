/**
 * The Tasks extension (io.modelcontextprotocol/tasks) against the strict modern fixture
 * (test/fixtures/servers/modern/tasks-server.mjs), a real process over stdio and over Streamable
 * HTTP, through a real Host: the tool call becomes a task Harbor follows transparently, at the
 * server's pollIntervalMs and never faster, the questions of an input_required task are asked
 * once per key and answered with tasks/update, a failed task names the server's error, stopping
 * the caller sends tasks/cancel and never notifications/cancelled, notifications/tasks arrive on
 * a listen stream where the server offers them, and Mcp-Name carries the task id over HTTP.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { TaskView } from '../../preload/contract';
import { answerWith } from '../helpers/answers';
import { NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { TASKS_SERVER, startHttpTasksServer, type RunningHttpServer } from '../helpers/http-server';

let test: TestHost | undefined;
let remote: RunningHttpServer | undefined;
let scratch: string | undefined;

afterEach(async () => {
  await test?.dispose();
  await remote?.kill();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  test = remote = scratch = undefined;
});

function eventsFile(): string {
  scratch = mkdtempSync(join(tmpdir(), 'harbor-tasks-'));
  return join(scratch, 'events.txt');
}

function events(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean) : [];
}

function stdioTasks(file: string, ...args: string[]) {
  return { command: NODE, args: [TASKS_SERVER, `--events-file`, file, ...args] };
}


describe('modern servers: the Tasks extension', () => {
  it('follows a task to its result, showing each status on the way, never polling faster than pollIntervalMs', async () => {
    const file = eventsFile();
    test = await createTestHost({ tasks: stdioTasks(file, '--poll-ms=150', '--no-notify') });
    const updates: TaskView[] = [];
    // Each step lasts several polls: with 200 ms steps and 150 ms polls, one poll 50–100 ms late (a GC
    // pause, a busy core) went from step 1 straight to step 3, and "Step 2 of 3" was never seen.
    const result = await test.call('tasks', 'research', { topic: 'tides', steps: 3, stepMs: 500 }, { task: { onUpdate: (t) => updates.push(t) } });
    expect(result.content).toEqual([{ type: 'text', text: 'Research on tides: done in 3 steps.' }]);
    expect(result.structuredContent).toEqual({ topic: 'tides', steps: 3 });
    expect(updates.map((u) => u.status)).toContain('working');
    expect(updates.at(-1)).toMatchObject({ server: 'tasks', tool: 'research', status: 'completed', hasResult: true });
    expect(updates.some((u) => u.statusMessage?.startsWith('Step 2 of 3'))).toBe(true);
    const seen = events(file);
    expect(seen.filter((l) => l.startsWith('get ')).length).toBeGreaterThanOrEqual(2);
    expect(seen.filter((l) => /^(too-fast|missing-extension|cancelled-notification)/.test(l))).toEqual([]);
    // Kept in the data folder, listed like `harbor tasks` lists it.
    expect(test.host.tasks.list()).toEqual([expect.objectContaining({ server: 'tasks', tool: 'research', status: 'completed', hasResult: true })]);
  });

  it('asks each input request once, however often it is polled, and sends the answers with tasks/update', async () => {
    const file = eventsFile();
    test = await createTestHost({ tasks: stdioTasks(file, '--poll-ms=100', '--no-notify') });
    const asked = answerWith(test, async (request): Promise<ElicitResult> => {
      // The person takes their time: several polls see the same question meanwhile.
      await new Promise((r) => setTimeout(r, 500));
      const content: Record<string, string> = request.message.startsWith('What is your name') ? { name: 'Ada' } : { mood: 'curious' };
      return { action: 'accept', content };
    });
    const result = await test.call('tasks', 'interview', {});
    expect(result.content).toEqual([{ type: 'text', text: 'Hello Ada, you feel curious.' }]);
    expect(asked.map((q) => q.message)).toEqual(['What is your name?', 'How do you feel, Ada?']);
    const seen = events(file);
    expect(seen.filter((l) => l.startsWith('update '))).toEqual([expect.stringMatching(/ name$/), expect.stringMatching(/ mood$/)]);
    expect(seen.filter((l) => l.startsWith('get ') && l.endsWith('input_required')).length).toBeGreaterThan(2);
    expect(seen.filter((l) => /^(too-fast|stale-key|missing-extension)/.test(l))).toEqual([]);
  });

  it('a failed task throws the JSON-RPC error the server reported', async () => {
    const file = eventsFile();
    test = await createTestHost({ tasks: stdioTasks(file, '--poll-ms=100') });
    await expect(test.call('tasks', 'explode', {})).rejects.toMatchObject({ code: 'PROTOCOL_ERROR', message: expect.stringContaining('The reactor overheated (code -32603)') });
    expect(test.host.tasks.list()[0]).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The reactor overheated' }, hasResult: false });
  });

  it('a task that completes with a tool error comes back as that result (isError), not as a failure', async () => {
    test = await createTestHost({ tasks: stdioTasks(eventsFile(), '--poll-ms=100') });
    const result = await test.call('tasks', 'refuse', {});
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'I will not do that.' }] });
  });

  it('stopping the caller sends tasks/cancel, never notifications/cancelled', async () => {
    const file = eventsFile();
    test = await createTestHost({ tasks: stdioTasks(file, '--poll-ms=100') });
    const stop = new AbortController();
    const updates: TaskView[] = [];
    const call = test.call('tasks', 'forever', {}, { signal: stop.signal, task: { onUpdate: (t) => updates.push(t) } });
    await waitFor(() => updates.some((u) => u.statusMessage?.startsWith('Still working (2)')), 'the task to run a while');
    stop.abort();
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await waitFor(() => events(file).some((l) => l.startsWith('task-cancelled ')), 'the server to hear tasks/cancel');
    expect(events(file).filter((l) => l.startsWith('cancelled-notification'))).toEqual([]);
    await waitFor(() => test!.host.tasks.list()[0]?.status === 'cancelled', 'the task to show as cancelled');
    expect(test.host.tasks.list()[0]).toMatchObject({ cancelRequested: true });
  });

  it('a deadline cancels the task (tasks/cancel) and fails with TIMEOUT', async () => {
    const file = eventsFile();
    test = await createTestHost({ tasks: stdioTasks(file, '--poll-ms=100') });
    await expect(test.call('tasks', 'forever', {}, { task: { deadlineMs: 600 } })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await waitFor(() => events(file).some((l) => l.startsWith('task-cancelled ')), 'tasks/cancel');
    expect(events(file).filter((l) => l.startsWith('cancelled-notification'))).toEqual([]);
  });

  it('takes notifications/tasks from a listen stream where the server offers them, ahead of the next poll', async () => {
    const file = eventsFile();
    // Polls every 5 s; the task ends in about 0.3 s: only a notification can bring the result sooner.
    test = await createTestHost({ tasks: stdioTasks(file, '--poll-ms=5000') });
    // Connected first: the clock measures the call, not how long a busy machine takes to spawn the server.
    expect((await test.host.servers.start('tasks')).state.kind).toBe('ready');
    const started = Date.now();
    const result = await test.call('tasks', 'research', { topic: 'waves', steps: 2, stepMs: 150 });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result.content).toEqual([{ type: 'text', text: 'Research on waves: done in 2 steps.' }]);
    expect(events(file).some((l) => l.startsWith('listen '))).toBe(true);
    expect(events(file).filter((l) => l.startsWith('get '))).toEqual([]);
  });

  it('works over Streamable HTTP, with Mcp-Name = taskId on every task request', async () => {
    const file = eventsFile();
    remote = await startHttpTasksServer(['--events-file', file, '--poll-ms=100', '--no-notify']);
    test = await createTestHost({ tasks: { url: remote.url } });
    const answers = answerWith(test, () => ({ action: 'accept', content: { name: 'Lin', mood: 'fine' } }));
    expect((await test.call('tasks', 'research', { topic: 'currents', steps: 2, stepMs: 100 })).content).toEqual([{ type: 'text', text: 'Research on currents: done in 2 steps.' }]);
    expect((await test.call('tasks', 'interview', {})).content).toEqual([{ type: 'text', text: 'Hello Lin, you feel fine.' }]);
    expect(answers).toHaveLength(2);
    const ids = new Set(test.host.tasks.list().map((t) => t.taskId));
    const named = events(file).filter((l) => l.startsWith('mcp-name '));
    expect(named.length).toBeGreaterThan(2);
    for (const line of named) expect(ids.has(line.split(' ')[2]!)).toBe(true);
    expect(named.some((l) => l.startsWith('mcp-name tasks/update '))).toBe(true);
    expect(events(file).filter((l) => /^(too-fast|missing-extension|cancelled-notification)/.test(l))).toEqual([]);
  });

  it('a quick tool answers directly: no task', async () => {
    test = await createTestHost({ tasks: stdioTasks(eventsFile()) });
    expect((await test.call('tasks', 'quick', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'quick: hi' }]);
    expect(test.host.tasks.list()).toEqual([]);
  });
});
