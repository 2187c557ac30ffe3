/**
 * An event listener that throws (a closed WebSocket, a front door's bug) must not stop the others
 * or the Host, and must not vanish either (issue 28): its failure is reported, and a Host writes it
 * to Harbor's own log with the event it was handling.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostEvents } from '../../main/host/events';
import { createTestHost, FEATURE_SERVER, NODE } from '../helpers/host';

describe('event listeners whose errors would vanish', () => {
  it('a throwing listener is reported with its event, and the others still hear it', () => {
    const bus = new HostEvents();
    const reported: [string, unknown][] = [];
    bus.reportListenerFailures((event, error) => reported.push([event, error]));
    const heard: string[] = [];
    const listeners = [
      bus.on(() => {
        throw new TypeError('the socket is closed');
      }),
      bus.on((event) => heard.push(event)),
    ];
    bus.emit('auth.open', { server: 'notes', url: 'https://example.com/' });
    for (const listener of listeners) void listener.dispose();
    expect(heard).toEqual(['auth.open']);
    expect(reported).toEqual([['auth.open', expect.objectContaining({ message: 'the socket is closed' })]]);
  });

  it("a Host writes a front door listener's failure to harbor.log, naming the event", async () => {
    const t = await createTestHost({ notes: { command: NODE, args: [FEATURE_SERVER] } });
    try {
      const listening = t.host.events.on(() => {
        throw new TypeError('the socket is closed');
      });
      await t.host.servers.start('notes');
      await listening.dispose();
      const file = join(t.dir, 'logs', 'harbor.log');
      const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ level: 'error', area: 'events', message: expect.stringContaining('servers.changed'), error: expect.objectContaining({ message: 'the socket is closed' }) }),
        ]),
      );
    } finally {
      await t.dispose();
    }
  });
});
