import { describe, expect, it } from 'vitest';
import type { ServerEventData } from '../../preload/contract';
import { ServerEventLog } from '../../main/host/services/server-event-log';
import { checkedEvents } from '../helpers/checked-events';

describe('ServerEventLog', () => {
  it('numbers every servers.changed event, announces it, keeps the newest, and stops when disposed', () => {
    const events = checkedEvents();
    const announced: ServerEventData[] = [];
    const listening = events.onEvent('serverEvents.entry', (entry) => announced.push(entry));
    const log = new ServerEventLog(events, 3);
    for (const name of ['a', 'b', 'c', 'd']) events.emit('servers.changed', { name, reason: 'config' });
    expect(log.list().map((e) => [e.seq, e.event.name])).toEqual([[2, 'b'], [3, 'c'], [4, 'd']]);
    expect(log.list({ afterSeq: 3 }).map((e) => e.seq)).toEqual([4]);
    expect(announced.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    log.dispose();
    events.emit('servers.changed', { name: 'e', reason: 'removed' });
    expect(log.list().map((e) => e.seq)).toEqual([2, 3, 4]);
    void listening.dispose();
  });
});
