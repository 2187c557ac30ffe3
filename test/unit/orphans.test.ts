import { describe, expect, it } from 'vitest';
import { hostInstanceId, instanceAlive, sweepOrphans } from '../../main/host/servers/stdio/orphans';

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
