/**
 * The renderer tests' transport holds every message to the contract: a scripted answer, a request
 * or an event that does not match its schema is refused, naming the command (or event) and the
 * path; what matches passes through unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../preload/contract';
import { ContractTransport, ContractViolation, failure } from '../helpers/contract-transport';
import { serverSummary } from '../helpers/server-summary';

const notes: ServerSummary = serverSummary('notes', { target: 'node notes.mjs', counts: { tools: 1 } });

describe('ContractTransport', () => {
  it('passes a scripted answer that matches the response schema through unchanged, and records the request', async () => {
    const extra = { ...notes, futureField: 1 };
    const transport = new ContractTransport({ 'servers.start': () => extra });
    expect(await transport.api.servers.start({ name: 'notes' })).toEqual({ ok: true, value: extra });
    expect(transport.sent('servers.start')).toEqual([{ name: 'notes' }]);
    expect(transport.takeViolations()).toEqual([]);
  });

  it('rejects an answer that does not match the response schema, naming the command and the path', async () => {
    const broken = { ...notes, state: { kind: 'error', code: 'SPAWN_FAILED', message: 'spawn npx ENOENT' } };
    const transport = new ContractTransport({ 'servers.start': () => broken as never });
    const result = await transport.api.servers.start({ name: 'notes' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    const violations = transport.takeViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('answer of servers.start does not match its response schema');
    expect(violations[0]).toContain('state.stderrTail');
  });

  it('rejects a scripted failure that is not the contract’s error shape', async () => {
    const transport = new ContractTransport({ 'servers.start': () => failure('SPAWN_FAILED', 42 as never) });
    await transport.api.servers.start({ name: 'notes' });
    expect(transport.takeViolations()).toEqual([expect.stringMatching(/^error answer of servers\.start .*message: /)]);
  });

  it('answers a scripted failure as an { ok: false } result', async () => {
    const transport = new ContractTransport({ 'servers.start': () => failure('SPAWN_FAILED', 'Cannot start "npx".') });
    expect(await transport.api.servers.start({ name: 'notes' })).toEqual({ ok: false, error: { code: 'SPAWN_FAILED', message: 'Cannot start "npx".' } });
  });

  it('rejects a request that does not match the request schema, before any handler runs', async () => {
    let ran = false;
    const transport = new ContractTransport({ 'servers.start': () => ((ran = true), notes) });
    await transport.api.servers.start({ name: '', extra: true } as never);
    expect(ran).toBe(false);
    const [violation] = transport.takeViolations();
    expect(violation).toContain('request of servers.start does not match its schema');
    expect(violation).toContain('name:');
    await transport.invoke('servers.explode', {}).catch(() => undefined);
    expect(transport.takeViolations()).toEqual(['"servers.explode" is not a command of the contract']);
  });

  it('throws at once on an event that does not match its schema, and delivers one that does', () => {
    const transport = new ContractTransport();
    const seen: unknown[] = [];
    transport.api.on.servers.changed((payload) => seen.push(payload));
    expect(() => transport.emit('servers.changed', { name: 'notes', reason: 'exploded' as never })).toThrow(ContractViolation);
    expect(() => transport.emit('servers.changed', { name: 'notes', reason: 'exploded' as never })).toThrow(/event servers\.changed does not match its schema: reason:/);
    transport.emit('servers.changed', { name: 'notes', reason: 'state', summary: notes });
    expect(seen).toEqual([{ name: 'notes', reason: 'state', summary: notes }]);
  });

  it('answers a command the test did not script as UNKNOWN_COMMAND', async () => {
    const transport = new ContractTransport();
    expect(await transport.api.servers.list({})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
  });
});
