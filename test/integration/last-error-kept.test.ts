/**
 * A server's real problem is not replaced by a consent question (issue #31, item 10): once it
 * crashed, a later launch question — waiting, or answered Deny — leaves its summary carrying that
 * crash (`lastError`: the message and the dead process's last stderr lines) beside the consent
 * state. A real Host, a real fixture process that dies at startup.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentChoice } from '../../preload/contract';
import { answerConsent } from '../helpers/answers';
import { FIXTURES, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';

const CRASH_AT_STARTUP = join(FIXTURES, 'adversarial/crash-at-startup.mjs');
let current: TestHost | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

describe('the last real error of a server', () => {
  it('stays beside the launch question (waiting, then denied) that follows a crash', async () => {
    current = await createTestHost({ u: { command: NODE, args: [CRASH_AT_STARTUP] } }, { approveLaunches: false, interactiveConsent: true });
    const answer: { next: ConsentChoice | undefined } = { next: 'always' };
    const asked = answerConsent(current, answer);
    await current.host.servers.startAll();
    const crashed = current.host.servers.get('u').state;
    expect(crashed).toMatchObject({ kind: 'error' });
    expect(crashed.kind === 'error' && crashed.code).not.toMatch(/^CONSENT_/);
    // The state says it itself: no second copy beside it.
    expect(current.host.servers.get('u').lastError).toBeUndefined();

    // The person takes the approval back (Settings), then starts it again: asked again, left waiting.
    current.host.consent.revoke('u');
    answer.next = undefined;
    const starting = current.host.servers.start('u');
    await waitFor(() => asked.length === 2, 'the second launch question');
    const waiting = current.host.servers.get('u');
    expect(waiting.state.kind).toBe('starting');
    expect(waiting.lastError).toMatchObject({ message: crashed.kind === 'error' ? crashed.message : '' });
    expect(waiting.lastError?.stderrTail).toContain('fatal: missing config FOO');

    // Denied: the state says so, and the crash is still there beside it.
    current.host.consent.respond(asked[1]!.id, 'deny');
    await starting;
    const denied = current.host.servers.get('u');
    expect(denied.state).toMatchObject({ kind: 'error', code: 'CONSENT_DENIED' });
    expect(denied.lastError).toMatchObject({ code: crashed.kind === 'error' ? crashed.code : 'none', message: crashed.kind === 'error' ? crashed.message : '' });
    expect(denied.lastError?.stderrTail).toContain('fatal: missing config FOO');
    expect(denied.lastError?.at).toBeTypeOf('number');
    // And the list the app reads says the same.
    expect(current.host.servers.list().find((s) => s.name === 'u')?.lastError?.message).toBe(denied.lastError?.message);
  });

  it('is absent when nothing failed before the Deny', async () => {
    current = await createTestHost({ u: { command: NODE, args: [CRASH_AT_STARTUP] } }, { approveLaunches: false, interactiveConsent: true });
    answerConsent(current, { next: 'deny' });
    await current.host.servers.startAll();
    const denied = current.host.servers.get('u');
    expect(denied.state).toMatchObject({ kind: 'error', code: 'CONSENT_DENIED' });
    expect(denied.lastError).toBeUndefined();
  });
});
