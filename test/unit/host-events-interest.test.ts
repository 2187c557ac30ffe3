/**
 * Every CLI command listens to one event (sampling.exchange). That must not make the Host build,
 * clean and forward every other event: in `harbor exec` each JSON-RPC message became a
 * traffic.message, serialised and redacted, that no one heard (#32 goal 4).
 */
import { describe, expect, it } from 'vitest';
import { HostEvents } from '../../main/host/events';
import { Redactor } from '../../main/host/secrets/redactor';
import { RedactionExit } from '../../main/host/services/redaction-exit';
import type { EventName } from '../../preload/contract';

describe('HostEvents.listens', () => {
  it('says which events a listener would hear: all for on(), one for onEvent(), none once disposed', () => {
    const events = new HostEvents();
    expect(events.listens('traffic.message')).toBe(false);
    const one = events.onEvent('sampling.exchange', () => undefined);
    expect(events.listens('sampling.exchange')).toBe(true);
    expect(events.listens('traffic.message')).toBe(false);
    const all = events.readOnly().on(() => undefined);
    expect(events.readOnly().listens('traffic.message')).toBe(true);
    void all.dispose();
    void all.dispose();
    expect(events.listens('traffic.message')).toBe(false);
    expect(events.listens('sampling.exchange')).toBe(true);
    void one.dispose();
    expect(events.listens('sampling.exchange')).toBe(false);
    expect(events.listenerCount).toBe(0);
  });

  it('the redaction exit neither cleans nor forwards an event only other events’ listeners are waiting for', () => {
    const inner = new HostEvents();
    const outer = new HostEvents();
    const heard: string[] = [];
    const sampling = outer.onEvent('sampling.exchange', () => heard.push('sampling.exchange'));
    const policy = new Proxy({}, { get: () => 'redact' }) as Readonly<Record<EventName, 'redact'>>;
    const forwarding = new RedactionExit(new Redactor()).forwardEvents(inner, outer, policy);
    let reads = 0;
    const payload = {
      get text() {
        reads += 1;
        return 'a message';
      },
    };
    inner.emit('traffic.message', payload as never);
    expect(reads).toBe(0);
    // Someone hearing every event gets it cleaned.
    const all: string[] = [];
    const listening = outer.on((event) => all.push(event));
    inner.emit('traffic.message', payload as never);
    expect(reads).toBeGreaterThan(0);
    expect(all).toEqual(['traffic.message']);
    expect(heard).toEqual([]);
    void listening.dispose();
    void sampling.dispose();
    void forwarding.dispose();
  });
});
