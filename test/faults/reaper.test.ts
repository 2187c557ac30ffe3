/**
 * The reaper on its own (main/host/servers/stdio/reaper.ts): a real /bin/sh reaper and real
 * process groups that ignore SIGTERM. A reaper that died is started again and told every group
 * still recorded; ending its pipe stops every recorded group (SIGTERM, then SIGKILL), and a group
 * no longer recorded is left alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessReaper } from '../../main/host/servers/stdio/reaper';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker, waitForMarkedProcesses, waitForNoMarkedProcesses } from '../fixtures/proc';
import { disposeAfterTest } from '../helpers/dispose-after-test';

const markers: string[] = [];
afterEach(() => {
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
});

/** A process group of its own whose leader and child ignore SIGTERM, marked for /proc. */
async function stubbornGroup(label: string): Promise<{ pgid: number; marker: string; leader: ChildProcess }> {
  const marker = uniqueMarker(label);
  markers.push(marker);
  const leader = spawn(
    process.execPath,
    ['-e', "process.on('SIGTERM',()=>{});require('node:child_process').spawn(process.execPath,['-e',\"process.on('SIGTERM',()=>{});setInterval(()=>{},1000)\"],{stdio:'ignore'});setInterval(()=>{},1000)"],
    { stdio: 'ignore', detached: true, env: { ...process.env, HARBOR_SERVER_MARKER: marker } },
  );
  leader.unref();
  expect((await waitForMarkedProcesses(marker, 2)).length).toBe(2);
  return { pgid: leader.pid!, marker, leader };
}

function exitOf(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        clearInterval(timer);
        resolve();
      }
    }, 25);
  });
}

describe.runIf(process.platform === 'linux' || process.platform === 'darwin')('the reaper', () => {
  it('started again after it died, stops every recorded group when its pipe ends, and no other', async () => {
    const reaper = disposeAfterTest(new ProcessReaper());
    const first = await stubbornGroup('first');
    const forgotten = await stubbornGroup('forgotten');
    const watches = [reaper.watch(first.pgid)];
    const released = reaper.watch(forgotten.pgid);
    const firstReaper = reaper.pid;
    expect(firstReaper).toBeDefined();

    // Killed (a stray `kill -9`): the next spawn starts a new one, told the groups recorded so far.
    process.kill(firstReaper!, 'SIGKILL');
    await exitOf(firstReaper!);
    const second = await stubbornGroup('second');
    await released.dispose();
    watches.push(reaper.watch(second.pgid));
    expect(reaper.pid).toBeDefined();
    expect(reaper.pid).not.toBe(firstReaper);

    await reaper.dispose();
    expect(await waitForNoMarkedProcesses(first.marker, 5_000)).toEqual([]);
    expect(await waitForNoMarkedProcesses(second.marker, 5_000)).toEqual([]);
    expect(findMarkedProcesses(forgotten.marker).length).toBe(2);
    for (const watch of watches) await watch.dispose();
  }, 60_000);
});
