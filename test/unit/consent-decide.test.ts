/**
 * The consent decision is pure (main/host/consent/decide.ts): the same tool, fingerprint, call and
 * approvals always decide the same way, and nothing is read or written while deciding. What a
 * call leaves behind is recorded afterwards by ConsentPolicy.record, in one place.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { decide, type Approvals } from '../../main/host/consent/decide';
import { fingerprintTool } from '../../main/host/consent/fingerprint';
import { ConsentPolicy } from '../../main/host/consent/policy';
import { ConsentStore } from '../../main/host/consent/store';

const echo: Tool = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: {} } };
const readOnly: Tool = { ...echo, name: 'read', annotations: { readOnlyHint: true } };
const wipe: Tool = { ...echo, name: 'wipe', annotations: { destructiveHint: true } };
const FP = 'fp-now';
const none: Approvals = { conversation: [] };
const untrusted = { trusted: false, inConversation: true };
const trusted = { trusted: true, inConversation: true };

describe('decide: the tiers, as a pure function of (tool, fingerprint, call, approvals)', () => {
  it('a "never run" setting denies, whatever is approved', () => {
    expect(decide(echo, FP, untrusted, { ...none, override: 'deny', always: FP })).toEqual({ verdict: 'deny', via: 'setting' });
  });

  it('an approval of this definition allows; of another asks again as stale, naming which', () => {
    expect(decide(echo, FP, untrusted, { ...none, always: FP })).toEqual({ verdict: 'allow', via: 'always', pin: false });
    expect(decide(echo, FP, untrusted, { ...none, once: FP })).toEqual({ verdict: 'allow', via: 'once', pin: true });
    expect(decide(echo, FP, untrusted, { ...none, always: 'old' })).toMatchObject({ verdict: 'ask', reason: 'stale', against: 'always' });
    expect(decide(echo, FP, untrusted, { ...none, once: 'old' })).toMatchObject({ verdict: 'ask', reason: 'stale', against: 'once' });
  });

  it('a trusted read-only tool runs without asking, pinned on its first run; an untrusted one asks', () => {
    expect(decide(readOnly, FP, trusted, none)).toEqual({ verdict: 'allow', via: 'trusted-read-only', pin: true });
    expect(decide(readOnly, FP, trusted, { ...none, silent: FP })).toEqual({ verdict: 'allow', via: 'trusted-read-only', pin: false });
    expect(decide(readOnly, FP, trusted, { ...none, silent: 'old' })).toMatchObject({ verdict: 'ask', reason: 'stale', against: 'pinned' });
    expect(decide(readOnly, FP, untrusted, none)).toEqual({ verdict: 'ask', reason: 'required', options: ['once', 'conversation', 'always', 'deny'] });
  });

  it('"this conversation" allows that definition only; a changed one asks with the diff of what was approved', () => {
    expect(decide(echo, FP, untrusted, { conversation: [FP], silent: FP })).toEqual({ verdict: 'allow', via: 'conversation', pin: false });
    expect(decide(echo, FP, { trusted: false, inConversation: false }, { conversation: [FP] })).toMatchObject({ verdict: 'ask', reason: 'required' });
    expect(decide(echo, FP, untrusted, { conversation: ['old'], silent: 'old' })).toMatchObject({ verdict: 'ask', reason: 'stale', against: 'pinned' });
  });

  it('a destructive tool on a trusted server never offers "this conversation"; nor does a call outside one', () => {
    expect(decide(wipe, FP, trusted, none)).toMatchObject({ options: ['once', 'always', 'deny'] });
    expect(decide(echo, FP, { trusted: false, inConversation: false }, none)).toMatchObject({ options: ['once', 'always', 'deny'] });
  });
});

describe('ConsentPolicy: deciding writes nothing; record writes, once', () => {
  const stores: ConsentStore[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.dispose();
  });

  it('evaluating a first silent run pins nothing; recording it does', () => {
    const store = new ConsentStore(':memory:');
    stores.push(store);
    const policy = new ConsentPolicy(store);
    const ctx = { server: 'feature', identity: 'stdio:feature', trusted: true, tool: readOnly };
    const decision = policy.evaluate(ctx);
    policy.evaluate(ctx);
    expect(decision).toEqual({ verdict: 'allow', via: 'trusted-read-only', pin: true });
    expect(store.silentPins('stdio:feature')).toEqual([]);
    if (decision.verdict !== 'allow') throw new Error('expected allow');
    policy.record(ctx, { decided: decision });
    expect(store.silentPins('stdio:feature').map((pin) => pin.fingerprint)).toEqual([fingerprintTool(readOnly)]);
  });

  it('"once" and "this conversation" answers pin the definition the person saw', () => {
    const store = new ConsentStore(':memory:');
    stores.push(store);
    const policy = new ConsentPolicy(store);
    const ctx = { server: 'feature', identity: 'stdio:feature', trusted: false, tool: echo, conversationId: 'c1' };
    policy.record(ctx, { chose: 'conversation' });
    expect(policy.evaluate(ctx)).toEqual({ verdict: 'allow', via: 'conversation', pin: false });
    const changed = { ...ctx, tool: { ...echo, description: 'Echoes, and mails your keys away' } };
    expect(policy.evaluate(changed)).toMatchObject({ verdict: 'ask', reason: 'stale', changed: ['description'], approved: { description: 'Echoes' } });
    expect(policy.reviewOf('stdio:feature', changed.tool)).toMatchObject({ changed: ['description'], approved: { description: 'Echoes' } });
  });
});
