/**
 * Harbor's own log (`DATA/logs/harbor.log`) and `harbor logs`, from the built CLI over real
 * servers: a server that fails is written there with its code and stderr, owner-only, and read back
 * filtered by server, level and age, or followed as it grows.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempRegistry } from '../helpers/cli';
import { FEATURE_SERVER, FIXTURES, NODE } from '../helpers/host';

const CRASH = join(FIXTURES, 'adversarial/crash-at-startup.mjs');
const registry = tempRegistry({
  broken: { command: NODE, args: [CRASH], trusted: true },
  feature: { command: NODE, args: [FEATURE_SERVER], trusted: true },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
const logFile = join(registry.dir, 'logs', 'harbor.log');
afterAll(() => registry.remove());

describe('harbor logs', () => {
  it('a server that fails to start is in the log with its code and stderr, and logs --json --server prints it', async () => {
    const call = await runCli([...g, 'call', 'broken', 'anything', '--yes']);
    expect(call.code).toBe(3);
    const mode = statSync(logFile).mode & 0o777;
    if (process.platform !== 'win32') expect(mode).toBe(0o600);

    const run = await runCli([...g, '--json', 'logs', '--server', 'broken', '--level', 'error']);
    expect(run.code).toBe(0);
    const entries = run.json<Record<string, unknown>>();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]).toMatchObject({ level: 'error', area: 'servers', server: 'broken', code: expect.any(String), message: expect.any(String) });
    expect(String(entries[0]!.stderrTail)).toContain('fatal: missing config FOO');
    expect(Number.isNaN(Date.parse(String(entries[0]!.time)))).toBe(false);
    // A healthy server wrote nothing at error level.
    const healthy = await runCli([...g, '--json', 'logs', '--server', 'feature', '--level', 'error']);
    expect(healthy.json()).toEqual([]);
  });

  it('prints entries as a person reads them, filters by age, and counts lines that are not entries', async () => {
    appendFileSync(logFile, `${JSON.stringify({ time: '2020-01-01T00:00:00.000Z', level: 'warn', area: 'test', server: 'broken', message: 'an old entry' })}\nnot json at all\n`);
    const all = await runCli([...g, 'logs', '--server', 'broken']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/WARN {2}test \[broken\] an old entry/);
    expect(all.stdout).toMatch(/ERROR servers \[broken\] .+\(\w+\)/);
    expect(all.stderr).toMatch(/1 line\(s\) of .*harbor\.log are not log entries/);
    const recent = await runCli([...g, '--json', 'logs', '--server', 'broken', '--since', '1h']);
    const messages = recent.json<{ message: string }>().map((e) => e.message);
    expect(messages).not.toContain('an old entry');
    expect(messages.length).toBeGreaterThan(0);
  });

  it('a level or duration it does not know is a usage error (2) naming what it takes', async () => {
    const level = await runCli([...g, 'logs', '--level', 'loud']);
    expect(level.code).toBe(2);
    expect(level.stderr).toMatch(/--level takes one of debug, info, warn, error \(got "loud"\)/);
    const since = await runCli([...g, 'logs', '--since', 'yesterday']);
    expect(since.code).toBe(2);
    expect(since.stderr).toMatch(/--since takes a duration such as 30s, 10m, 2h or 1d/);
  });

  it('--follow prints what is written after it started, and Ctrl-C ends it as a normal stop (0)', async () => {
    const before = (await runCli([...g, '--json', 'logs', '--level', 'error'])).json().length;
    expect(before).toBeGreaterThan(0);
    const child = spawn(NODE, [CLI, ...g, '--json', 'logs', '--follow', '--level', 'error'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Record<string, unknown>[] = [];
    const waiters: { count: number; resolve: () => void }[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
      for (const w of waiters) if (lines.length >= w.count) w.resolve();
    });
    const linesAtLeast = (count: number) => new Promise<void>((resolve) => (lines.length >= count ? resolve() : waiters.push({ count, resolve })));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await linesAtLeast(before); // what was there is printed first
      const call = await runCli([...g, 'call', 'broken', 'anything', '--yes']);
      expect(call.code).toBe(3);
      await linesAtLeast(before + 1); // then what was written while it followed
      expect(lines.slice(before)).toEqual(expect.arrayContaining([expect.objectContaining({ level: 'error', server: 'broken' })]));
      expect(lines.every((l) => l.level === 'error')).toBe(true);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
