/**
 * The stdio supervisor against real processes: the stop ladder, process-group sweeps for wrapper
 * trees, spawn failures with hints, stderr capture. Every test marks its processes with a unique
 * env marker and asserts — by scanning /proc — that none of them survives.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServerEnv, POSIX_INHERITED_ENV } from '../../main/host/servers/stdio/environment';
import { MARKER_ENV, StdioProcess } from '../../main/host/servers/stdio/process';
import {
  findMarkedProcesses,
  killMarkedProcesses,
  uniqueMarker,
  waitForMarkedProcesses,
  waitForNoMarkedProcesses,
} from '../fixtures/proc';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { waitFor } from '../helpers/wait-for';

const FIXTURES = fileURLToPath(new URL('../fixtures/servers/adversarial/', import.meta.url));
const NODE = process.execPath;
const STUBBORN = join(FIXTURES, 'stubborn.mjs');
const POLITE = join(FIXTURES, 'crash-on-call.mjs'); // a valid server that exits on stdin EOF
const linuxOnly = process.platform !== 'linux';

describe.skipIf(linuxOnly)('StdioProcess', () => {
  const markers: string[] = [];
  const processes: StdioProcess[] = [];
  const dirs: string[] = [];

  afterEach(async () => {
    await Promise.all(processes.splice(0).map((proc) => proc.stop({ stdinGraceMs: 100, termGraceMs: 100 })));
    for (const marker of markers.splice(0)) killMarkedProcesses(marker);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function start(label: string, command: string, args: string[], extra: { cwd?: string; env?: Record<string, string> } = {}) {
    const marker = uniqueMarker(label);
    markers.push(marker);
    const proc = StdioProcess.spawn({ command, args, marker, ...extra });
    processes.push(proc);
    const stderrEvents: { line: string; at: number }[] = [];
    disposeAfterTest(proc.onStderrLine((line) => stderrEvents.push({ line, at: Date.now() })));
    return { proc, marker, stderrEvents };
  }

  it('a polite server exits on stdin EOF: stop() needs no signal and leaves nothing', async () => {
    const { proc, marker } = start('polite', NODE, [POLITE]);
    await proc.spawned;
    expect(await waitForMarkedProcesses(marker, 1)).toHaveLength(1);
    const started = Date.now();
    await proc.stop({ stdinGraceMs: 10_000, termGraceMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000); // far below the 10 s grace: EOF did it
    expect(proc.exitInfo).toEqual({ code: 0, signal: null });
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  });

  it('a stubborn server: SIGTERM to the group after the stdin grace, SIGKILL after the term grace; the grandchild goes too', async () => {
    const { proc, marker, stderrEvents } = start('stubborn', NODE, [STUBBORN]);
    await proc.spawned;
    await waitFor(() => stderrEvents.some((e) => e.line.startsWith('stubborn: grandchild')), 'the grandchild\'s stderr line');
    const before = await waitForMarkedProcesses(marker, 2);
    expect(before).toHaveLength(2); // server + grandchild, same group
    expect(new Set(before.map((p) => p.pgid))).toEqual(new Set([proc.pid]));

    const started = Date.now();
    await proc.stop({ stdinGraceMs: 300, termGraceMs: 300 });
    const elapsed = Date.now() - started;

    expect(stderrEvents.some((e) => e.line === 'stubborn: stdin ended, staying alive')).toBe(true);
    const term = stderrEvents.find((e) => e.line === 'stubborn: ignoring SIGTERM');
    expect(term, 'the server saw SIGTERM').toBeDefined();
    expect(term!.at - started).toBeGreaterThanOrEqual(250);
    expect(proc.exitInfo).toEqual({ code: null, signal: 'SIGKILL' });
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(5000);
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
  });

  it('stop() is idempotent: concurrent and later calls share one run; dispose() is stop()', async () => {
    const { proc, marker } = start('idempotent', NODE, [STUBBORN]);
    await proc.spawned;
    await waitForMarkedProcesses(marker, 2);
    const a = proc.stop({ stdinGraceMs: 100, termGraceMs: 100 });
    const b = proc.stop({ stdinGraceMs: 60_000, termGraceMs: 60_000 });
    expect(b).toBe(a);
    expect(proc.dispose()).toBe(a);
    await a;
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
  });

  it('`sh -c` wrapper (dash stays the parent and dies on SIGTERM): the group sweep still gets server and grandchild', async () => {
    const { proc, marker } = start('sh-wrapper', 'sh', ['-c', `"${NODE}" "${STUBBORN}"`]);
    await proc.spawned;
    const before = await waitForMarkedProcesses(marker, 3);
    expect(before).toHaveLength(3); // sh, server, grandchild
    await proc.stop({ stdinGraceMs: 300, termGraceMs: 300 });
    expect(proc.exitInfo?.signal).toBe('SIGTERM'); // the wrapper died on SIGTERM; its children did not
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
  });

  it('control: signalling only the direct child (what the SDK does) leaves the server behind', async () => {
    const marker = uniqueMarker('naive-control');
    markers.push(marker);
    const child = spawn('sh', ['-c', `"${NODE}" "${STUBBORN}"`], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', [MARKER_ENV]: marker },
    });
    child.stderr.resume();
    child.stdout.resume();
    expect(await waitForMarkedProcesses(marker, 3)).toHaveLength(3);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(findMarkedProcesses(marker).length).toBeGreaterThanOrEqual(2); // orphans: the leak the supervisor prevents
    killMarkedProcesses(marker);
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
  });

  it('a grandchild that left the process group (setsid) is caught by the /proc descendant snapshot', async () => {
    const { proc, marker, stderrEvents } = start('detached-grandchild', NODE, [STUBBORN, '--detach-grandchild']);
    await proc.spawned;
    await waitFor(() => stderrEvents.some((e) => e.line.includes('(detached)')), 'the detached grandchild\'s stderr line');
    const before = await waitForMarkedProcesses(marker, 2);
    expect(before).toHaveLength(2);
    expect(before.filter((p) => p.pgid !== proc.pid)).toHaveLength(1); // outside the group kill's reach
    await proc.stop({ stdinGraceMs: 300, termGraceMs: 300 });
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
  });

  it('when the leader dies unexpectedly, the rest of its group is swept at once', async () => {
    const { proc, marker } = start('leader-crash', 'sh', ['-c', `"${NODE}" "${STUBBORN}"`]);
    await proc.spawned;
    expect(await waitForMarkedProcesses(marker, 3)).toHaveLength(3);
    const exitSeen = new Promise((resolve) => {
      disposeAfterTest(proc.onExit(resolve));
    });
    process.kill(proc.pid!, 'SIGKILL'); // the wrapper crashes; nobody calls stop()
    expect(await exitSeen).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await waitForNoMarkedProcesses(marker, 2000)).toEqual([]);
    await proc.stop(); // still fine afterwards
  });

  it('`npx --no <local bin>` wrapper tree (npm exec → sh → node → grandchild) leaves nothing', async () => {
    const project = mkdtempSync(join(tmpdir(), 'harbor-npx-'));
    dirs.push(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'npx-wrapper-test', version: '1.0.0', private: true }));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(STUBBORN, join(project, 'node_modules', '.bin', 'fake-mcp'));
    const env = buildServerEnv({ base: process.env, serverEnv: { npm_config_update_notifier: 'false' }, platform: 'linux' });
    const { proc, marker, stderrEvents } = start('npx-wrapper', 'npx', ['--no', 'fake-mcp'], { cwd: project, env });
    await proc.spawned;
    await waitFor(() => stderrEvents.some((e) => e.line.startsWith('stubborn: grandchild')), 'the grandchild\'s stderr line', 20_000);
    expect((await waitForMarkedProcesses(marker, 3)).length).toBeGreaterThanOrEqual(3);
    await proc.stop({ stdinGraceMs: 300, termGraceMs: 300 });
    expect(await waitForNoMarkedProcesses(marker, 3000)).toEqual([]);
  });

  it('a command that is not on PATH fails with SPAWN_FAILED and says how to fix it', async () => {
    const emptyBin = mkdtempSync(join(tmpdir(), 'harbor-empty-bin-'));
    dirs.push(emptyBin);
    const { proc } = start('enoent', 'npx', ['-y', 'some-server'], { env: { PATH: emptyBin } });
    await expect(proc.spawned).rejects.toMatchObject({
      name: 'HarborError',
      code: 'SPAWN_FAILED',
      message: `Harbor could not find "npx" on PATH (${emptyBin}). Install Node.js, or set "command" to the full path (e.g. /usr/local/bin/npx).`,
    });
    expect(proc.spawnError?.detail).toBe('spawn npx ENOENT');
    expect(await proc.exited).toEqual({ code: null, signal: null });
    await proc.stop(); // nothing to stop, resolves
  });

  it('a missing working directory is reported as that, not as a missing command', async () => {
    const { proc } = start('bad-cwd', NODE, ['-e', ''], { cwd: '/definitely/not/a/dir' });
    await expect(proc.spawned).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringContaining('working directory "/definitely/not/a/dir" does not exist'),
    });
  });

  it('stderr is captured into the ring, never inherited onto the host', async () => {
    const { proc, marker } = start('stderr', NODE, [join(FIXTURES, 'crash-at-startup.mjs')]);
    expect(await proc.exited).toEqual({ code: 1, signal: null });
    await proc.stop();
    expect(proc.stderr.tail()).toBe('fatal: missing config FOO');

    // The child's fd 2 is a channel of its own (libuv uses a socketpair for 'pipe'), not the test
    // runner's stdout/stderr.
    const { proc: sleeper } = start('stderr-fd', NODE, ['-e', 'setInterval(() => {}, 1000)']);
    await sleeper.spawned;
    const childErr = readlinkSync(`/proc/${sleeper.pid}/fd/2`);
    expect(childErr).toMatch(/^(pipe|socket):/);
    expect(childErr).not.toBe(readlinkSync('/proc/self/fd/1'));
    expect(childErr).not.toBe(readlinkSync('/proc/self/fd/2'));
    await sleeper.stop({ stdinGraceMs: 100, termGraceMs: 100 });
    expect(await waitForNoMarkedProcesses(marker)).toEqual([]);
  });

  it('without an explicit env, a server gets only the allowlisted environment (plus the marker)', async () => {
    const { proc } = start('env', NODE, ['-e', 'setInterval(() => {}, 1000)']);
    await proc.spawned;
    const names = readFileSync(`/proc/${proc.pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.slice(0, entry.indexOf('=')));
    const allowed = new Set<string>([...POSIX_INHERITED_ENV, MARKER_ENV]);
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    expect(names).toContain(MARKER_ENV);
  });
});
