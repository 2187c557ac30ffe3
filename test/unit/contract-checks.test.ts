/**
 * Responses and events are checked against the contract in development and tests: a handler or
 * an emitter whose data drifts from the schemas fails loudly, naming the command or event and the
 * path; with the checks off (built code) the same data goes out untouched.
 */
import { describe, expect, it } from 'vitest';
import { createDispatcher, type CommandHandlers } from '../../main/dispatch';
import { contractChecksOn, loadEventSchemas } from '../../main/host/contract-checks';
import { HostEvents } from '../../main/host/events';
import { events as eventSchemas } from '../../preload/contract';
import { STOPPED_SUMMARY } from '../helpers/server-summary';

const summary = STOPPED_SUMMARY;

/** A handler answering what the caller gives it, whatever its type says. */
function dispatcherAnswering(answer: unknown, checkResponses?: boolean) {
  const handlers: Partial<Record<string, () => Promise<unknown>>> = { 'servers.list': async () => answer };
  return createDispatcher(handlers as unknown as CommandHandlers, checkResponses === undefined ? {} : { checkResponses });
}

describe('response checks (main/dispatch.ts)', () => {
  it('a response that matches goes out as it is', async () => {
    expect(await dispatcherAnswering([summary], true)('servers.list', {})).toEqual({ ok: true, value: [summary] });
  });

  it('a response that drifts is an INTERNAL error naming the command and every wrong path', async () => {
    const drifted = [{ ...summary, transport: 'carrier-pigeon', state: { kind: 'error', code: 'OOPS', message: 'x', stderrTail: '' } }];
    const result = await dispatcherAnswering(drifted, true)('servers.list', {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INTERNAL');
    expect(result.error.message).toContain('The response of servers.list does not match the contract');
    expect(result.error.message).toContain('0.transport:');
    expect(result.error.message).toContain('0.state.code:');
  });

  it('a missing field is named by its path', async () => {
    const { counts: _counts, ...withoutCounts } = summary;
    const result = await dispatcherAnswering([withoutCounts], true)('servers.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL', message: expect.stringContaining('0.counts:') } });
  });

  it('with checks off (built code) the same response goes out unchanged', async () => {
    const drifted = [{ ...summary, transport: 'carrier-pigeon', extra: 1 }];
    expect(await dispatcherAnswering(drifted, false)('servers.list', {})).toEqual({ ok: true, value: drifted });
  });

  it('checks are on by default under the tests', async () => {
    expect(contractChecksOn()).toBe(true);
    expect((await dispatcherAnswering([{ name: 'half' }])('servers.list', {})).ok).toBe(false);
  });
});

describe('event checks (HostEvents.emit)', () => {
  it('a payload that drifts throws INTERNAL at the emitter, naming the event and the path, and reaches no listener', async () => {
    const events = new HostEvents({ schemas: eventSchemas });
    const heard: unknown[] = [];
    const listening = events.on((_event, payload) => heard.push(payload));
    // @ts-expect-error the drift the type system would catch too: the runtime check catches it where types were bypassed
    expect(() => events.emit('servers.changed', { name: 'notes', reason: 'whim' })).toThrow(
      expect.objectContaining({ code: 'INTERNAL', message: expect.stringMatching(/servers\.changed does not match the contract: reason:/) }),
    );
    expect(heard).toEqual([]);
    events.emit('servers.changed', { name: 'notes', reason: 'state' });
    expect(heard).toEqual([{ name: 'notes', reason: 'state' }]);
    await listening.dispose();
  });

  it('a nested wrong error code is named by its full path', () => {
    const events = new HostEvents({ schemas: eventSchemas });
    const state = { kind: 'error', code: 'NOT_A_CODE', message: 'x', stderrTail: '' };
    const payload = { name: 'notes', reason: 'state', summary: { ...summary, state } };
    // @ts-expect-error a code outside the enum
    expect(() => events.emit('servers.changed', payload)).toThrow(/summary\.state\.code:/);
  });

  it('with checks off (built code) every payload reaches the listeners', async () => {
    const events = new HostEvents();
    const heard: unknown[] = [];
    const listening = events.on((_event, payload) => heard.push(payload));
    // @ts-expect-error deliberately wrong
    events.emit('servers.changed', { name: 'notes', reason: 'whim' });
    expect(heard).toEqual([{ name: 'notes', reason: 'whim' }]);
    await listening.dispose();
  });

  it('HARBOR_CONTRACT_CHECKS=1 turns checks on whatever the build', () => {
    expect(contractChecksOn({ HARBOR_CONTRACT_CHECKS: '1' })).toBe(true);
  });

  it('the Host is given the events\' schemas when the checks are on (loadEventSchemas)', async () => {
    expect(await loadEventSchemas({ HARBOR_CONTRACT_CHECKS: '1' })).toBe(eventSchemas);
  });
});
