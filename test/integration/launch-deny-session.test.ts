/**
 * After a restart, a server the person denied is not asked about again on every chat turn (issue
 * #31, item 5): the person's Deny of a launch holds for this run, through the one question queue;
 * starting the server themselves asks again, and a deadline passing is not a Deny.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentChoice } from '../../preload/contract';
import { answerConsent } from '../helpers/answers';
import { FIXTURES, NODE, createTestHost, type TestHost } from '../helpers/host';
import { errorOf } from '../helpers/harbor-error';

const LEGACY = join(FIXTURES, 'legacy/legacy-stdio.mjs');
let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('a denied launch', () => {
  it('holds for the session: tool calls and chat turns do not ask again; Start asks again', async () => {
    current = await createTestHost({ u: { command: NODE, args: [LEGACY] } }, { approveLaunches: false, interactiveConsent: true });
    const answer: { next: ConsentChoice | undefined } = { next: 'deny' };
    const asked = answerConsent(current, answer);
    await current.host.servers.startAll();
    expect(current.host.servers.get('u').state).toMatchObject({ kind: 'error', code: 'CONSENT_DENIED' });
    expect(asked).toHaveLength(1);

    // What a chat turn does with every enabled server: reach it. Refused, without a question.
    for (let turn = 0; turn < 3; turn++) {
      const refused = await errorOf(current.host.calls.callTool('u', 'echo', { text: 'x' }));
      expect(refused.code).toBe('CONSENT_DENIED');
    }
    expect(current.host.consent.pendingRequests()).toEqual([]);
    expect(asked).toHaveLength(1);

    // The person starts it: asked again, and this time allowed.
    answer.next = 'once';
    await current.host.servers.start('u');
    expect(asked).toHaveLength(2);
    expect(current.host.servers.get('u').state.kind).toBe('ready');
  });

  it('a question left unanswered until its deadline is not a Deny: the next start asks again', async () => {
    current = await createTestHost({ u: { command: NODE, args: [LEGACY] } }, { approveLaunches: false, interactiveConsent: true, consentTimeoutMs: 200 });
    const answer: { next: ConsentChoice | undefined } = { next: undefined };
    const asked = answerConsent(current, answer);
    await current.host.servers.startAll();
    expect(current.host.servers.get('u').state).toMatchObject({ kind: 'error', code: 'CONSENT_DENIED' });
    answer.next = 'once';
    await current.host.calls.callTool('u', 'echo', { text: 'x' });
    expect(asked.filter((r) => r.kind === 'launch')).toHaveLength(2);
  });
});
