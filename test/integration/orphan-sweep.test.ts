/**
 * A Harbor that dies without stopping its servers (SIGKILL, a crash) leaves the stubborn ones
 * running; the next start of the app stops them, and only them. Real processes: the built CLI
 * holding a `watch` on the stubborn fixture (it ignores stdin EOF and SIGTERM, and starts a
 * grandchild that does too), killed with SIGKILL, then a Host's sweep.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCE_ENV, hostInstanceId } from '../../main/host/servers/stdio/orphans';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker, waitForMarkedProcesses, waitForNoMarkedProcesses } from '../fixtures/proc';
import { CLI } from '../helpers/cli';
import { FIXTURES, NODE, createTestHost, type TestHost } from '../helpers/host';

const STUBBORN = join(FIXTURES, 'adversarial/stubborn.mjs');

const markers: string[] = [];
const children: ChildProcess[] = [];
const dirs: string[] = [];
const hosts: TestHost[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `harbor watch stubborn` in its own process, holding the stubborn server (and its grandchild). */
async function harborWatchingStubborn(label: string): Promise<{ child: ChildProcess; marker: string }> {
  const marker = uniqueMarker(label);
  markers.push(marker);
  const dir = mkdtempSync(join(tmpdir(), 'harbor-orphans-'));
  dirs.push(dir);
  const config = join(dir, 'harbor.json');
  // Trusted: the CLI launches it without asking (the launch consent is not what this is about).
  writeFileSync(config, JSON.stringify({ mcpServers: { stubborn: { command: NODE, args: [STUBBORN], env: { HARBOR_SERVER_MARKER: marker }, trusted: true } } }));
  const child = spawn(NODE, [CLI, '--config', config, '--data-dir', dir, 'watch', 'stubborn', '--seconds', '120'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  // The server and its grandchild.
  const running = await waitForMarkedProcesses(marker, 2, 20_000);
  expect(running.length, `harbor watch did not start the stubborn server and its grandchild`).toBeGreaterThanOrEqual(2);
  return { child, marker };
}

async function sigkill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** SIGKILLs the direct children of `pid` that are not marked: the reaper, which would stop the servers itself. */
function killHelpers(pid: number, marker: string): void {
  const servers = new Set(findMarkedProcesses(marker).map((p) => p.pid));
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || servers.has(Number(name))) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) process.kill(Number(name), 'SIGKILL');
    } catch {
      // exited while we looked
    }
  }
}

describe.runIf(process.platform === 'linux')('servers left behind by a Harbor that died', () => {
  it('every stdio server carries the instance of the Harbor that started it', async () => {
    const { marker, child } = await harborWatchingStubborn('instance');
    const environ = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    for (const proc of findMarkedProcesses(marker)) {
      const instance = environ(proc.pid).find((e) => e.startsWith(`${INSTANCE_ENV}=`));
      expect(instance, `process ${proc.pid} (${proc.cmdline})`).toMatch(new RegExp(`^${INSTANCE_ENV}=${child.pid}:\\d+$`));
    }
  }, 30_000);

  it('survive the SIGKILL, and the next start stops them (grandchild included) but not a live Harbor\'s servers', async () => {
    const dead = await harborWatchingStubborn('dead');
    const live = await harborWatchingStubborn('live');
    // Harbor and its reaper killed together (test/faults/killed-harbor.test.ts: the reaper alone
    // stops them otherwise).
    killHelpers(dead.child.pid!, dead.marker);
    await sigkill(dead.child);

    // Nothing of this Harbor stops them now. They are recorded at once: every Harbor start on this
    // machine sweeps (other test files start Harbors all the time), and one may stop them first.
    const orphanPids = findMarkedProcesses(dead.marker).map((p) => p.pid);
    expect(orphanPids.length, 'nothing outlived the SIGKILLed Harbor: the test shows nothing').toBeGreaterThanOrEqual(1);

    const next = await createTestHost({});
    hosts.push(next);
    const report = await next.host.sweepOrphans();
    expect(report.supported).toBe(true);
    // Every Harbor start sweeps, so another one on this machine may have stopped some first.
    const ours = report.stopped.filter((s) => s.instance.startsWith(`${dead.child.pid}:`)).map((s) => s.pid);
    expect(orphanPids).toEqual(expect.arrayContaining(ours));
    expect(await waitForNoMarkedProcesses(dead.marker, 5_000)).toEqual([]);
    expect(next.host.appInfo().orphansStopped).toBe(report.stopped.length);

    // The live Harbor's server and grandchild were not touched, and its own sweep finds nothing of it.
    expect(findMarkedProcesses(live.marker).length).toBeGreaterThanOrEqual(2);
    expect(report.stopped.some((s) => s.instance.startsWith(`${live.child.pid}:`))).toBe(false);
    // Sweeping runs once per Host.
    expect(await next.host.sweepOrphans()).toBe(report);
  }, 60_000);

  it("never touches this process's own servers", async () => {
    const marker = uniqueMarker('own');
    markers.push(marker);
    const own = await createTestHost({ stubborn: { command: NODE, args: [STUBBORN], env: { HARBOR_SERVER_MARKER: marker } } }, { stopGraces: { stdinGraceMs: 200, termGraceMs: 200 } });
    hosts.push(own);
    await own.host.servers.startAll();
    await waitForMarkedProcesses(marker, 2);
    const report = await own.host.sweepOrphans();
    expect(report.stopped.some((s) => s.instance === hostInstanceId())).toBe(false);
    expect(findMarkedProcesses(marker).length).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
