import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { INSTANCE_ENV, hostInstanceId, instanceAlive, parsePsListing, sweepOrphans } from '../../main/host/servers/stdio/orphans';

describe.runIf(process.platform === 'linux')('Harbor instance ids', () => {
  it('name this process by pid and start time', () => {
    expect(hostInstanceId()).toMatch(new RegExp(`^${process.pid}:\\d+$`));
    expect(instanceAlive(hostInstanceId()!)).toBe(true);
  });

  it('count a reused pid (another start time) and a vanished pid as gone', () => {
    expect(instanceAlive(`${process.pid}:1`)).toBe(false);
    expect(instanceAlive('999999999:12345')).toBe(false);
  });

  it('count what they cannot read as alive, so it is never swept', () => {
    expect(instanceAlive('not-an-instance')).toBeUndefined();
    expect(instanceAlive(':123')).toBeUndefined();
    // PID 1 exists, started at another time than this instance says: not that Harbor.
    expect(instanceAlive('1:0')).toBe(false);
  });
});

describe('orphan sweep', () => {
  it('does not exist on Windows and says so', async () => {
    expect(await sweepOrphans({ self: undefined, platform: 'win32' })).toEqual({ supported: false, stopped: [] });
  });
});

describe('the ps listing (macOS path)', () => {
  it('reads pid, start time and instance from a line as `ps -E -o pid=,lstart=,command=` prints it', () => {
    const listing = [
      '  501 Mon Nov 30 02:18:05 2026     /usr/local/bin/node server.js PATH=/usr/bin HARBOR_HOST_INSTANCE=4242:Mon_Nov_30_01:00:00_2026 HOME=/Users/a',
      '  502 Sun Nov  1 09:05:00 2026     /bin/zsh -l TERM=xterm',
      `${process.pid} Mon Nov 30 02:18:05 2026 node HARBOR_HOST_INSTANCE=1:x`,
      'garbage',
    ].join('\n');
    expect(parsePsListing(listing, process.pid)).toEqual([{ pid: 501, instance: '4242:Mon_Nov_30_01:00:00_2026', startTime: 'Mon_Nov_30_02:18:05_2026' }]);
  });

  it.runIf(process.platform === 'linux')('parses what a real ps prints for a running process', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)', `${INSTANCE_ENV}=7:Tue_Dec__1_00:00:00_2026`], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const listing = execFileSync('ps', ['-o', 'pid=,lstart=,args=', '-p', String(child.pid)], { encoding: 'utf8' });
      const [found] = parsePsListing(listing, process.pid);
      expect(found).toMatchObject({ pid: child.pid, instance: '7:Tue_Dec__1_00:00:00_2026' });
      expect(found!.startTime).toMatch(/^\w{3}_\w{3}_\d{1,2}_\d{2}:\d{2}:\d{2}_\d{4}$/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
