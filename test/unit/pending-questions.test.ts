/**
 * The one queue of the person's pending decisions (main/host/pending-questions.ts), behind consent
 * (tool calls, launches, secrets, harbor:// links), sampling reviews and server questions: an id
 * and a deadline, the default answer on timeout / cancel / abort / disposal, exactly one settle,
 * a listing for a reloaded window, and an answer check that refuses without settling. Each kind
 * is a configuration of it; their own checks are in sampling-parts and app-elicitation tests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PendingQuestions, type Question } from '../../main/host/pending-questions';
import { consentQuestions } from '../../main/host/consent/pending';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { checkedEvents } from '../helpers/checked-events';

interface Ask extends Question {
  readonly text: string;
}

function questions(options: { timeoutMs?: number; check?: (q: Ask, a: string) => { ok: true; answer: string } | { ok: false; problem: string } } = {}) {
  const asked: Ask[] = [];
  const settled: [string, string][] = [];
  const pending = disposeAfterTest(
    new PendingQuestions<Ask, string>({
      timeoutMs: options.timeoutMs ?? 60_000,
      defaultAnswer: 'no',
      asked: (q) => asked.push(q),
      settled: (q, a) => settled.push([q.id, a]),
      ...(options.check ? { check: options.check } : {}),
    }),
  );
  return { pending, asked, settled };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('PendingQuestions', () => {
  it('announces a question with an id and a deadline, settles it once with the answer, and forgets it', async () => {
    const { pending, asked, settled } = questions();
    const answer = pending.ask({ text: 'Allow?' });
    expect(asked).toEqual([{ text: 'Allow?', id: expect.any(String), deadline: expect.any(Number) }]);
    const id = asked[0]!.id;
    expect(pending.requests()).toEqual(asked);
    expect(pending.answer(id, 'yes')).toEqual({ kind: 'settled' });
    expect(await answer).toBe('yes');
    // A second answer for the same question settles nothing, and nothing is announced twice.
    expect(pending.answer(id, 'no')).toEqual({ kind: 'unknown' });
    expect(settled).toEqual([[id, 'yes']]);
    expect(pending.requests()).toEqual([]);
    expect(pending.answer('never-asked', 'yes')).toEqual({ kind: 'unknown' });
  });

  it('answers with the default when the deadline passes, and ignores a late answer', async () => {
    vi.useFakeTimers();
    const { pending, asked, settled } = questions({ timeoutMs: 1000 });
    const answer = pending.ask({ text: 'Slow?' });
    vi.advanceTimersByTime(1001);
    expect(await answer).toBe('no');
    expect(pending.answer(asked[0]!.id, 'yes')).toEqual({ kind: 'unknown' });
    expect(settled).toEqual([[asked[0]!.id, 'no']]);
  });

  it('answers with the default when the asker gives up (abort), before or while it waits', async () => {
    const { pending, asked, settled } = questions();
    const controller = new AbortController();
    const answer = pending.ask({ text: 'Still there?' }, controller.signal);
    controller.abort();
    expect(await answer).toBe('no');
    expect(settled).toEqual([[asked[0]!.id, 'no']]);
    expect(pending.size).toBe(0);
    // Already aborted: never announced, answered at once.
    expect(await pending.ask({ text: 'Too late' }, controller.signal)).toBe('no');
    expect(asked).toHaveLength(1);
  });

  it('cancel takes one waiting question down with the default answer, once', async () => {
    const { pending, asked, settled } = questions();
    const first = pending.ask({ text: 'a' });
    const second = pending.ask({ text: 'b' });
    expect(pending.cancel(asked[0]!.id)).toBe(true);
    expect(await first).toBe('no');
    expect(pending.cancel(asked[0]!.id)).toBe(false);
    expect(pending.answer(asked[0]!.id, 'yes')).toEqual({ kind: 'unknown' });
    expect(pending.requests().map((q) => q.text)).toEqual(['b']);
    expect(pending.answer(asked[1]!.id, 'yes')).toEqual({ kind: 'settled' });
    expect(await second).toBe('yes');
    expect(settled).toEqual([[asked[0]!.id, 'no'], [asked[1]!.id, 'yes']]);
  });

  it('answers every waiting question with the default on dispose, and asks no more after it', async () => {
    const { pending, asked, settled } = questions();
    const answers = [pending.ask({ text: 'a' }), pending.ask({ text: 'b' })];
    expect(pending.requests().map((q) => q.text)).toEqual(['a', 'b']);
    pending.dispose();
    expect(await Promise.all(answers)).toEqual(['no', 'no']);
    expect(settled.map(([, a]) => a)).toEqual(['no', 'no']);
    expect(await pending.ask({ text: 'c' })).toBe('no');
    expect(asked).toHaveLength(2);
  });

  it('refuses an answer the check rejects: the question keeps waiting for a better one', async () => {
    const { pending, asked, settled } = questions({
      check: (_q, a) => (a === 'maybe' ? { ok: false, problem: '"maybe" is not an answer' } : { ok: true, answer: a.toUpperCase() }),
    });
    const answer = pending.ask({ text: 'Sure?' });
    const id = asked[0]!.id;
    expect(pending.answer(id, 'maybe')).toEqual({ kind: 'refused', problem: '"maybe" is not an answer' });
    expect(pending.has(id)).toBe(true);
    expect(settled).toEqual([]);
    expect(pending.answer(id, 'yes')).toEqual({ kind: 'settled' });
    // The check may clean the answer up; what settles is the cleaned copy.
    expect(await answer).toBe('YES');
  });

  it('lists what still waits, oldest first, for a window that reloads', () => {
    const { pending } = questions();
    void pending.ask({ text: 'first' });
    void pending.ask({ text: 'second' });
    const listed = pending.requests();
    expect(listed.map((q) => q.text)).toEqual(['first', 'second']);
    expect(listed[0]!.deadline).toBeGreaterThan(Date.now());
    expect(pending.get(listed[1]!.id)?.text).toBe('second');
  });
});

describe('consent questions on the one queue', () => {
  it('keep their contract: consent.request / consent.resolved, deny by default, options checked', async () => {
    const events = checkedEvents();
    const seen: string[] = [];
    disposeAfterTest(events.on((name) => seen.push(name)));
    const consents = disposeAfterTest(consentQuestions(events, 60_000));
    const decision = consents.ask({ kind: 'launch', server: 's', trusted: false, options: ['once', 'deny'] });
    const id = consents.requests()[0]!.id;
    expect(consents.answer(id, 'always')).toEqual({ kind: 'refused', problem: '"always" was not offered for this request.' });
    expect(consents.has(id)).toBe(true);
    expect(consents.answer(id, 'once')).toEqual({ kind: 'settled' });
    expect(await decision).toBe('once');
    expect(seen).toEqual(['consent.request', 'consent.resolved']);
    const later = consents.ask({ kind: 'launch', server: 's', trusted: false, options: ['once', 'deny'] });
    consents.dispose();
    expect(await later).toBe('deny');
  });
});
