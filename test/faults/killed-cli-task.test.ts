/**
 * A `harbor call` killed (SIGKILL) while it follows a task leaves the task's record behind. The
 * next listing sees that the process that followed it is gone (its pid and start time) and shows
 * the task ended, saying so, instead of "working" for good.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../preload/contract';
import { CLI, runCli, tempRegistry } from '../helpers/cli';
import { NODE } from '../helpers/host';
import { TASKS_SERVER } from '../helpers/http-server';

let registry: ReturnType<typeof tempRegistry> | undefined;

afterEach(() => {
  registry?.remove();
  registry = undefined;
});

const ENV = { ...process.env, HARBOR_KEYCHAIN_SERVICE: 'harbor-faults-test' };

describe('a task whose harbor command was killed', () => {
  it('shows ended, saying the process that followed it is gone', { timeout: 300_000 }, async () => {
    registry = tempRegistry({ tasks: { command: NODE, args: [TASKS_SERVER, '--poll-ms=100'] } });
    const flags = ['--config', registry.config, '--data-dir', join(registry.dir, 'data')];
    const child = spawn(NODE, [CLI, ...flags, 'call', 'tasks', 'research', '--args', '{"topic":"tides","steps":50,"stepMs":2000}', '--yes'], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.on('close', resolve));
    // Killed once it follows the task: its first status line is on stderr.
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stderr }).on('line', (line) => {
        if (/^task \S+: working/.test(line)) resolve();
      });
      void exited.then(() => reject(new Error('harbor call ended before its task started')));
    });
    child.kill('SIGKILL');
    await exited;
    const list = await runCli([...flags, 'tasks', '--json'], { env: ENV, timeoutMs: 120_000 });
    expect(list.code, list.stderr).toBe(0);
    const [task] = list.json<TaskView>();
    expect(task).toMatchObject({ server: 'tasks', tool: 'research', endedAt: expect.any(Number) });
    expect(task!.status).not.toBe('working');
    expect(task!.error?.message ?? task!.statusMessage).toMatch(new RegExp(`process that followed it \\(pid ${child.pid}\\) is gone`));
  });
});
