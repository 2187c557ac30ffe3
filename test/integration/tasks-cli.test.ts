/**
 * Tasks from the built CLI, as a user runs it: `harbor call` waits for a task transparently and
 * prints its result like any call's (the task's status on stderr), `--timeout MS` cancels it with
 * tasks/cancel and exits 3, Ctrl-C cancels it too, and `harbor tasks [SERVER] [--json]` lists
 * the tasks kept in the data folder (`--refresh` asks the server first: tasks/list on a legacy
 * server). Against the strict modern fixture and server-everything's simulate-research-query
 * (taskSupport "required") over stdio and Streamable HTTP.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, tempRegistry } from '../helpers/cli';
import { EVERYTHING_SERVER, NODE, waitFor } from '../helpers/host';
import { TASKS_SERVER, startHttpEverythingServer, type RunningHttpServer } from '../helpers/http-server';

let registry: ReturnType<typeof tempRegistry> | undefined;
let remote: RunningHttpServer | undefined;

afterEach(async () => {
  await remote?.kill();
  registry?.remove();
  registry = remote = undefined;
});

function setup(servers: Record<string, Record<string, unknown>>): string[] {
  registry = tempRegistry(servers);
  return ['--config', registry.config, '--data-dir', registry.dir];
}

const eventsPath = () => join(registry!.dir, 'events.txt');
const events = () => (existsSync(eventsPath()) ? readFileSync(eventsPath(), 'utf8').trim().split('\n') : []);
const tasksServer = (...args: string[]) => ({ command: NODE, args: [TASKS_SERVER, '--events-file', '${harbor:data}/events.txt', ...args] });

describe('harbor call with a task', () => {
  it('waits for the task and prints its result like any call, the status on stderr', async () => {
    const flags = setup({ tasks: tasksServer('--poll-ms=100') });
    const run = await runCli([...flags, 'call', 'tasks', 'research', '--args', '{"topic":"tides","steps":3,"stepMs":150}', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('Research on tides: done in 3 steps.');
    expect(run.stderr).toMatch(/^task \S+: working — Step 1 of 3: reading about tides$/m);
    expect(run.stderr).toMatch(/^task \S+: completed/m);
    const json = await runCli([...flags, 'call', 'tasks', 'refuse', '--yes', '--json']);
    // A task that completes with a tool error is the tool's error: exit 1, as for any call.
    expect(json.code).toBe(1);
    expect(json.json()[0]).toMatchObject({ isError: true, content: [{ type: 'text', text: 'I will not do that.' }] });
  });

  it('answers a task\'s questions from --answer (each asked once)', async () => {
    const flags = setup({ tasks: tasksServer('--poll-ms=100') });
    const run = await runCli([...flags, 'call', 'tasks', 'interview', '--yes', '--answer', '{"name":"Ada","mood":"calm"}']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('Hello Ada, you feel calm.');
    expect(run.stderr.match(/asks: What is your name\?/g)).toHaveLength(1);
  });

  it('--timeout MS cancels the task with tasks/cancel and exits 3', async () => {
    const flags = setup({ tasks: tasksServer('--poll-ms=100') });
    const run = await runCli([...flags, 'call', 'tasks', 'forever', '--yes', '--timeout', '700']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/did not finish within 700 ms; Harbor asked the server to cancel it/);
    expect(events().some((l) => l.startsWith('task-cancelled '))).toBe(true);
    expect(events().filter((l) => l.startsWith('cancelled-notification'))).toEqual([]);
    const listed = await runCli([...flags, 'tasks', '--json']);
    expect(listed.json()[0]).toMatchObject({ tool: 'forever', cancelRequested: true });
  });

  it('Ctrl-C cancels the task with tasks/cancel before Harbor exits', async () => {
    const flags = setup({ tasks: tasksServer('--poll-ms=100') });
    const child = spawn(NODE, [CLI, ...flags, 'call', 'tasks', 'forever', '--yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => stderr.includes('Still working (2)'), `the task to run (stderr: ${stderr})`, 20_000);
    child.kill('SIGINT');
    expect(await exited).not.toBe(0);
    expect(events().some((l) => l.startsWith('task-cancelled '))).toBe(true);
    expect(events().filter((l) => l.startsWith('cancelled-notification'))).toEqual([]);
  });

  it('a failed task exits 1 (the server answered with an error) naming the server\'s error', async () => {
    const flags = setup({ tasks: tasksServer('--poll-ms=100') });
    const run = await runCli([...flags, 'call', 'tasks', 'explode', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('failed: The reactor overheated (code -32603)');
  });

  it('runs server-everything\'s simulate-research-query (taskSupport "required") over stdio and over Streamable HTTP', async () => {
    remote = await startHttpEverythingServer();
    const flags = setup({ local: { command: NODE, args: [EVERYTHING_SERVER, 'stdio'] }, remote: { url: remote.url } });
    for (const server of ['local', 'remote']) {
      const run = await runCli([...flags, 'call', server, 'simulate-research-query', '--args', '{"topic":"tides"}', '--yes'], { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('# Research Report: tides');
      expect(run.stderr).toMatch(/: working — Gathering sources\.\.\./);
    }
    const listed = await runCli([...flags, 'tasks', '--json']);
    expect(listed.code).toBe(0);
    const lines = listed.json();
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({ taskId: expect.any(String), tool: 'simulate-research-query', status: 'completed', createdAt: expect.any(String), lastUpdatedAt: expect.any(String) });
      expect(line).toHaveProperty('statusMessage');
    }
    expect((await runCli([...flags, 'tasks', 'remote', '--json'])).json().map((l) => l.server)).toEqual(['remote']);
    const human = await runCli([...flags, 'tasks']);
    expect(human.stdout).toMatch(/remote\/simulate-research-query +completed/);
  }, 60_000); // a research task twice, over two transports: 16 s here unloaded

  it('tasks SERVER --refresh asks a legacy server (tasks/list) about tasks Harbor did not see end', async () => {
    remote = await startHttpEverythingServer();
    const flags = setup({ remote: { url: remote.url } });
    // A CLI killed mid-task leaves the task unfinished in the data folder.
    const child = spawn(NODE, [CLI, ...flags, 'call', 'remote', 'simulate-research-query', '--args', '{"topic":"tides"}', '--yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await waitFor(() => stderr.includes('Gathering sources'), `the task to start (stderr: ${stderr})`, 20_000);
    child.kill('SIGKILL');
    await exited;
    // The next listing sees that the command following it is gone (test/faults/killed-cli-task.test.ts).
    expect((await runCli([...flags, 'tasks', '--json'])).json()[0]).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('is gone') } });
    const refreshed = await runCli([...flags, 'tasks', 'remote', '--refresh', '--yes', '--json', '--trace']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toMatch(/\[remote\] -> .*"method":"tasks\/list"/);
    // server-everything keeps tasks per HTTP session: a new Harbor has a new session, and the task is gone.
    expect(refreshed.json()[0]).toMatchObject({ tool: 'simulate-research-query', status: 'failed', error: { message: expect.stringContaining('no longer knows this task') } });
    expect((await runCli([...flags, 'tasks', '--json'])).json()[0]).toMatchObject({ status: 'failed' });
  });
});
