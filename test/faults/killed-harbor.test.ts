/**
 * Fault: Harbor itself is SIGKILLed (the OOM killer, a closed terminal, a crash) while it runs a
 * stdio server that ignores the end of its stdin and SIGTERM, and has a child that does too. The
 * servers must die with Harbor within a few seconds (the reaper, main/host/servers/stdio/reaper.ts),
 * and where even the reaper was killed with Harbor, the next Harbor command — a one-shot CLI one
 * included — stops them (the orphan sweep at every Host start). Real processes: the built CLI, the
 * stubborn fixture; Linux (/proc) only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker, waitForMarkedProcesses, waitForNoMarkedProcesses } from '../fixtures/proc';
import { CLI, runCli } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';

const STUBBORN = join(FIXTURES, 'adversarial/stubborn.mjs');
/** "Within a few seconds": the reaper's own grace is 2 s; the rest is room for a busy machine. */
const DIE_WITH_HARBOR_MS = 6_000;

const markers: string[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
const strays: number[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already: nothing to clean up
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface RunningHarbor {
  readonly child: ChildProcess;
  readonly marker: string;
  readonly config: string;
  readonly dir: string;
}

/** `harbor watch stubborn` in its own process, once the server and its grandchild run. */
async function harborHoldingStubborn(label: string): Promise<RunningHarbor> {
  const marker = uniqueMarker(label);
  markers.push(marker);
  const dir = mkdtempSync(join(tmpdir(), 'harbor-killed-'));
  dirs.push(dir);
  const config = join(dir, 'harbor.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { stubborn: { command: NODE, args: [STUBBORN], env: { HARBOR_SERVER_MARKER: marker }, trusted: true } } }));
  const child = spawn(NODE, [CLI, '--config', config, '--data-dir', dir, 'watch', 'stubborn', '--seconds', '120'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const running = await waitForMarkedProcesses(marker, 2, 30_000);
  expect(running.length, 'harbor watch did not start the stubborn server and its grandchild').toBeGreaterThanOrEqual(2);
  return { child, marker, config, dir };
}

async function sigkill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** The direct children of `pid` that are not the server's (the reaper, if Harbor has one). */
function helperChildren(pid: number, marker: string): number[] {
  const servers = new Set(findMarkedProcesses(marker).map((p) => p.pid));
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || servers.has(Number(name))) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

describe.runIf(process.platform === 'linux')('a SIGKILLed Harbor', () => {
  it('takes its stubborn stdio server and the server\'s child along within a few seconds', async () => {
    const harbor = await harborHoldingStubborn('reaped');
    const before = findMarkedProcesses(harbor.marker);
    await sigkill(harbor.child);
    const started = Date.now();
    const survivors = await waitForNoMarkedProcesses(harbor.marker, DIE_WITH_HARBOR_MS);
    expect(survivors.map((p) => `${p.pid} ${p.cmdline}`), `of ${before.length} server processes, these outlived the SIGKILLed Harbor for ${DIE_WITH_HARBOR_MS} ms`).toEqual([]);
    expect(Date.now() - started).toBeLessThan(DIE_WITH_HARBOR_MS);
  }, 60_000);

  it('killed together with its reaper: the next one-shot command stops what it left', async () => {
    const harbor = await harborHoldingStubborn('swept');
    // Whatever helper Harbor runs beside its servers dies with it here (as when the OOM killer or
    // a `kill -9` takes both): only the sweep of the next Harbor is left to clean up.
    const helpers = helperChildren(harbor.child.pid!, harbor.marker);
    expect(helpers.length, 'Harbor runs no reaper beside its server').toBeGreaterThanOrEqual(1);
    strays.push(...helpers);
    for (const pid of helpers) process.kill(pid, 'SIGKILL');
    await sigkill(harbor.child);
    const orphans = findMarkedProcesses(harbor.marker);
    expect(orphans.length, 'nothing outlived Harbor and its helpers: the test shows nothing').toBeGreaterThanOrEqual(1);

    // A one-shot command with a registry of its own, naming no server: it only has to start a Host.
    const other = mkdtempSync(join(tmpdir(), 'harbor-killed-next-'));
    dirs.push(other);
    writeFileSync(join(other, 'harbor.json'), JSON.stringify({ mcpServers: {} }));
    const run = await runCli(['--config', join(other, 'harbor.json'), '--data-dir', other, 'info', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(await waitForNoMarkedProcesses(harbor.marker, 5_000)).toEqual([]);
  }, 60_000);
});
