// A server's last real failure, kept beside a later launch question until it is ready again (issue #31, item 10).
import { describe, expect, it } from 'vitest';
import { LastFailure } from '../../main/host/servers/last-failure';

const crashed = { kind: 'error', code: 'CONNECTION_CLOSED', message: '"u" exited with code 1.', stderrTail: 'fatal: missing config FOO' } as const;
const denied = { kind: 'error', code: 'CONSENT_DENIED', message: 'You did not allow launching "u".', stderrTail: '' } as const;

describe('LastFailure', () => {
  it('keeps a failure through a launch question and the Deny after it, not through a ready state', () => {
    const last = new LastFailure(() => 42);
    last.note(crashed);
    expect(last.beside(crashed)).toBeUndefined(); // the state says it itself
    last.note({ kind: 'starting' });
    expect(last.beside({ kind: 'starting' })).toEqual({ code: 'CONNECTION_CLOSED', message: crashed.message, stderrTail: crashed.stderrTail, at: 42 });
    last.note(denied);
    expect(last.beside(denied)?.message).toBe(crashed.message);
    expect(last.beside({ kind: 'stopped' })?.code).toBe('CONNECTION_CLOSED');
    last.note({ kind: 'ready' });
    expect(last.beside(denied)).toBeUndefined();
  });

  it('keeps a crash being restarted (no code) and shows it once the restarts end in a question', () => {
    const last = new LastFailure(() => 7);
    last.note({ kind: 'restarting', attempt: 1, maxAttempts: 3, nextAt: 0, message: 'It exited with code 3.', stderrTail: 'CRASHY-FATAL' });
    expect(last.beside({ kind: 'restarting', attempt: 1, maxAttempts: 3, nextAt: 0 })).toBeUndefined();
    expect(last.beside(denied)).toEqual({ message: 'It exited with code 3.', stderrTail: 'CRASHY-FATAL', at: 7 });
  });

  it('has nothing to say when nothing failed', () => {
    const last = new LastFailure();
    last.note(denied);
    expect(last.beside(denied)).toBeUndefined();
  });
});
