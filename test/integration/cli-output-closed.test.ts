/**
 * The reader of Harbor's output goes away (`harbor … | head -c 10`): the built CLI, real pipes, a
 * real `head`. The command ends quietly with exit 0 (no "Unhandled 'error' event … EPIPE" stack),
 * and the servers it started are stopped, not left running.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, tempRegistry } from '../helpers/cli';
import { FEATURE_SERVER, NODE } from '../helpers/host';

// A variable in every server's environment, to find its processes in /proc afterwards.
const MARKER = `harbor-epipe-${randomBytes(6).toString('hex')}`;
const registry = tempRegistry({
  a: { command: NODE, args: [FEATURE_SERVER], env: { HARBOR_TEST_MARKER: MARKER }, trusted: true },
  b: { command: NODE, args: [FEATURE_SERVER], env: { HARBOR_TEST_MARKER: MARKER }, trusted: true },
});
const g = ['--config', registry.config, '--data-dir', registry.dir];
afterAll(() => registry.remove());

/** Processes whose environment holds the marker (Linux: /proc). */
function serverProcesses(): number[] {
  if (!existsSync('/proc/self/cmdline')) return [];
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(MARKER);
      } catch {
        return false; // it ended while we looked
      }
    })
    .map(Number);
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs `harbor ARGS | READER` in bash with pipefail: the pipeline's status is Harbor's unless the reader fails. */
function pipeline(args: string[], reader: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const command = `set -o pipefail; ${[NODE, CLI, ...args].map(quote).join(' ')} | ${reader}`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe.skipIf(process.platform === 'win32')('a reader that stops reading', () => {
  it('harbor call … | head -c 10: exit 0, ten bytes, no stack trace', async () => {
    // 100 kB of result: more than a pipe holds, so Harbor is still writing when head has gone.
    const text = 'x'.repeat(100_000);
    const run = await pipeline([...g, 'call', 'a', 'echo', '--args', JSON.stringify({ text }), '--yes'], 'head -c 10');
    expect(run.stdout).toBe('xxxxxxxxxx');
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at .*\(/);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('harbor servers --json with a reader that is already gone: exit 0, silent, and its servers stopped', async () => {
    // `true` exits at once: every write Harbor makes meets a closed pipe.
    const run = await pipeline([...g, '--json', 'servers'], 'true');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(serverProcesses()).toEqual([]);
  });
});
