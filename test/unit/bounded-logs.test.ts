/**
 * The Host's bounded logs of server events, launch failures and sandbox refusals are capped by
 * size as well as by count (ring-log.ts): entries with a huge stderr tail, URI or refused path
 * cannot make a count cap hold megabytes.
 */
import { describe, expect, it } from 'vitest';
import { REFUSAL_LIMITS, RefusalBook } from '../../main/host/sandbox/refusal-book';
import { LAUNCH_FAILURE_LIMITS, LaunchFailures } from '../../main/host/services/launch-failures';
import { SERVER_EVENT_LIMITS, ServerEventLog } from '../../main/host/services/server-event-log';
import { checkedEvents } from '../helpers/checked-events';

const big = (n: number, i: number) => `${i}:${'x'.repeat(n)}`;
const size = (value: unknown) => JSON.stringify(value).length;

describe('bounded logs', () => {
  it('launch failures keep at most their byte cap (plus the newest), however long each stderr tail', () => {
    const failures = new LaunchFailures(checkedEvents());
    for (let i = 0; i < 100; i++) failures.record(`s${i}`, { kind: 'error', code: 'CONNECT_FAILED', message: 'failed', stderrTail: big(100_000, i) });
    const kept = failures.list();
    expect(size(kept)).toBeLessThanOrEqual(LAUNCH_FAILURE_LIMITS.maxBytes + 101_000);
    expect(kept.at(-1)!.name).toBe('s99');
    expect(kept.length).toBeLessThan(100);
  });

  it('server events keep at most their byte cap (plus the newest)', () => {
    const events = checkedEvents();
    const log = new ServerEventLog(events);
    for (let i = 0; i < SERVER_EVENT_LIMITS.maxEntries; i++) events.emit('servers.changed', { name: 's', reason: 'resourceUpdated', uri: big(50_000, i) });
    const kept = log.list();
    expect(size(kept)).toBeLessThanOrEqual(SERVER_EVENT_LIMITS.maxBytes + 51_000);
    expect(kept.at(-1)!.event.uri).toBe(big(50_000, SERVER_EVENT_LIMITS.maxEntries - 1));
    log.dispose();
  });

  it('sandbox refusals keep at most their byte cap per server, newest last, a repeat counted and moved last', () => {
    const book = new RefusalBook(() => undefined);
    for (let i = 0; i < REFUSAL_LIMITS.maxEntries; i++) book.record('s', { kind: 'read', target: big(20_000, i) });
    const kept = book.list('s');
    expect(size(kept)).toBeLessThanOrEqual(REFUSAL_LIMITS.maxBytes + 21_000);
    const last = kept.at(-1)!;
    book.record('s', { kind: 'read', target: kept[0]!.target });
    expect(book.list('s').at(-1)).toMatchObject({ target: kept[0]!.target, count: 2 });
    expect(book.list('s').at(-2)).toMatchObject({ target: last.target });
  });
});
