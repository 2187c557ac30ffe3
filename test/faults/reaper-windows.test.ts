/**
 * The Windows reaper (main/host/servers/stdio/reaper-command.ts): a Job object with kill-on-close
 * held by a PowerShell process. A server that has been assigned, and a child it starts afterwards,
 * both end when the reaper's pipe ends (Harbor exited).
 *
 * This half runs only on Windows: Harbor's own machines are Linux, where it is skipped (saying why).
 * What runs everywhere: the command each platform gets, checked below.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { WINDOWS_REAPER_SCRIPT, reaperCommand } from '../../main/host/servers/stdio/reaper-command';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill();
});

/** Resolves when `pid` is gone; polls, since another process's end has no event here. */
function exitOf(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      try {
        process.kill(pid, 0);
        if (Date.now() > deadline) {
          clearInterval(timer);
          resolve(false);
        }
      } catch {
        clearInterval(timer);
        resolve(true);
      }
    }, 50);
  });
}

describe('the reaper command of each platform', () => {
  it('is /bin/sh in a session of its own on POSIX, and PowerShell with the job script on Windows', () => {
    expect(reaperCommand('linux')).toMatchObject({ command: '/bin/sh', detached: true });
    expect(reaperCommand('darwin', '/usr/local/bin/sh').command).toBe('/usr/local/bin/sh');
    const windows = reaperCommand('win32');
    expect(windows).toMatchObject({ command: 'powershell.exe', detached: false });
    const encoded = windows.args[windows.args.indexOf('-EncodedCommand') + 1]!;
    expect(Buffer.from(encoded, 'base64').toString('utf16le')).toBe(WINDOWS_REAPER_SCRIPT);
    // Kill-on-close, breakaway not allowed (no 0x800 / 0x1000 flags), an assignment per "+PID".
    expect(WINDOWS_REAPER_SCRIPT).toContain('LimitFlags = 0x2000;');
    expect(WINDOWS_REAPER_SCRIPT).toContain('AssignProcessToJobObject(job, process)');
  });
});

const skipReason = process.platform === 'win32' ? undefined : 'the Job object reaper runs only on Windows (these machines are Linux)';

describe.skipIf(skipReason)(`the Windows reaper${skipReason ? ` — skipped: ${skipReason}` : ''}`, () => {
  it('ends an assigned server and the child it started afterwards when its pipe ends', { timeout: 60_000 }, async () => {
    // The "server": waits for "go", then starts a child that lives on its own, and prints its pid.
    const server = spawn(process.execPath, ['-e', "process.stdin.once('data',()=>{const c=require('node:child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});console.log(c.pid)});setInterval(()=>{},1000)"], { stdio: ['pipe', 'pipe', 'ignore'] });
    started.push(server);
    const { command, args } = reaperCommand('win32');
    const reaper = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'inherit'], windowsHide: true });
    started.push(reaper);
    const answers = createInterface({ input: reaper.stdout! });
    const assigned = new Promise<string>((resolve) => answers.on('line', (line) => line.startsWith('assigned') && resolve(line)));
    reaper.stdin!.write(`+${server.pid}\n`);
    expect(await assigned).toBe(`assigned ${server.pid} True`);

    const childPid = new Promise<number>((resolve) => createInterface({ input: server.stdout! }).once('line', (line) => resolve(Number(line))));
    server.stdin!.write('go\n');
    const child = await childPid;

    reaper.stdin!.end();
    expect(await exitOf(server.pid!, 10_000)).toBe(true);
    expect(await exitOf(child, 10_000)).toBe(true);
  });
});
