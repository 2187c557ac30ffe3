/**
 * Ctrl-C (SIGINT) during a stdio call: the CLI cancels the call and exits in under a second, its
 * server stopped. Real processes: the built CLI calling the feature server's `slow` tool, which
 * writes "started" to an events file once it runs the call.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killMarkedProcesses, uniqueMarker, waitForNoMarkedProcesses } from '../fixtures/proc';
import { CLI } from '../helpers/cli';
import { FEATURE_SERVER, FIXTURES, NODE, waitFor } from '../helpers/host';

const BUSY = join(FIXTURES, 'adversarial/hangs-on-call.mjs');

/**
 * "Under one second", from the signal to the exit of the CLI process: about 0.5 s on a quiet
 * machine; the bound leaves room for a shared, busy one (at a load of 25 per core: 1.1–1.7 s).
 * Before: 2.7 s with the busy server (the 2 s stdin grace, then SIGTERM, then a 0.5 s timer that
 * kept the process alive), 1.1 s with the feature server (that timer).
 */
const EXIT_WITHIN_MS = 2_000;

const dirs: string[] = [];
const markers: string[] = [];
afterEach(() => {
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Ctrl-C during a stdio call', () => {
  it('a server that keeps working after its stdin ends (ignoring the cancellation): under a second too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-sigint-'));
    dirs.push(dir);
    const marker = uniqueMarker('sigint-busy');
    markers.push(marker);
    const started = join(dir, 'started.txt');
    const config = join(dir, 'harbor.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { busy: { command: NODE, args: [BUSY, '--busy', `--started-file=${started}`], env: { HARBOR_SERVER_MARKER: marker }, trusted: true } } }));
    const child = spawn(NODE, [CLI, '--config', config, '--data-dir', dir, 'call', 'busy', 'work', '--yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
    await waitFor(() => existsSync(started), `the server to start the call (stderr: ${stderr})`, 30_000);
    const signalled = Date.now();
    child.kill('SIGINT');
    const exitedAt = await exited;
    expect(child.exitCode, stderr).toBe(130);
    expect(exitedAt - signalled, `the CLI took ${exitedAt - signalled} ms to exit after Ctrl-C`).toBeLessThan(EXIT_WITHIN_MS);
    expect(await waitForNoMarkedProcesses(marker, 5_000)).toEqual([]);
  }, 60_000);

  it('exits in under a second, having stopped the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harbor-sigint-'));
    dirs.push(dir);
    const marker = uniqueMarker('sigint');
    markers.push(marker);
    const events = join(dir, 'events.txt');
    const config = join(dir, 'harbor.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { feature: { command: NODE, args: [FEATURE_SERVER, '--events-file', events], env: { HARBOR_SERVER_MARKER: marker }, trusted: true } } }));
    const child = spawn(NODE, [CLI, '--config', config, '--data-dir', dir, 'call', 'feature', 'slow', '--args', '{"steps":300,"delayMs":100}', '--yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
    await waitFor(() => existsSync(events) && /started/.test(readFileSync(events, 'utf8')), `the server to start the call (stderr: ${stderr})`, 30_000);
    const signalled = Date.now();
    child.kill('SIGINT');
    const exitedAt = await exited;
    expect(child.exitCode, stderr).toBe(130);
    expect(exitedAt - signalled, `the CLI took ${exitedAt - signalled} ms to exit after Ctrl-C`).toBeLessThan(EXIT_WITHIN_MS);
    expect(await waitForNoMarkedProcesses(marker, 5_000)).toEqual([]);
  }, 60_000);
});
