/**
 * The parts of sampling that need no server: which model a server's hints pick, the per-server
 * rate limit, how the person's edits apply to the messages, what an edit may change at each
 * review stage, and that tool use (not declared) is refused.
 */
import { ProtocolError, type SamplingMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { SamplingRequestData } from '../../preload/contract';
import type { ModelConfig } from '../../main/host/registry/schema';
import { chooseModel, samplingCandidates } from '../../main/host/sampling/model-choice';
import { SamplingRateLimit } from '../../main/host/sampling/rate-limit';
import { refuseToolUse, showMessages, toModelMessages, withEditedTexts } from '../../main/host/sampling/sampling-messages';
import { samplingReview } from '../../main/host/sampling/sampling-review';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { checkedEvents } from '../helpers/checked-events';

const model = (name: string): ModelConfig => ({ provider: 'openai-compatible', model: name, baseURL: 'http://127.0.0.1:1/v1' });

describe('model choice', () => {
  it('the server\'s own models come first, then the registry\'s, each once', () => {
    expect(samplingCandidates([model('a'), model('b')], model('a')).map((m) => m.model)).toEqual(['a', 'b']);
    expect(samplingCandidates(model('own'), model('main')).map((m) => m.model)).toEqual(['own', 'main']);
    expect(samplingCandidates(undefined, undefined)).toEqual([]);
  });

  it('the first hint that names part of a candidate wins; otherwise the first candidate', () => {
    const candidates = [model('gpt-small'), model('claude-sonnet-4'), model('claude-opus-4')];
    expect(chooseModel(candidates, { hints: [{ name: 'opus' }, { name: 'sonnet' }] })?.model).toBe('claude-opus-4');
    expect(chooseModel(candidates, { hints: [{ name: 'gemini' }, { name: 'SONNET' }] })?.model).toBe('claude-sonnet-4');
    expect(chooseModel(candidates, { hints: [{ name: 'gemini' }] })?.model).toBe('gpt-small');
    expect(chooseModel(candidates, { intelligencePriority: 1 })?.model).toBe('gpt-small');
    expect(chooseModel([], undefined)).toBeUndefined();
  });
});

describe('rate limit', () => {
  it('allows perMinute requests in any minute, then refuses until the oldest leaves the window', () => {
    let now = 0;
    const limit = new SamplingRateLimit(() => now);
    expect([1, 2, 3].map(() => limit.take('s', 2))).toEqual([true, true, false]);
    expect(limit.take('other', 2)).toBe(true);
    now = 30_000;
    expect(limit.retryAfterMs('s', 2)).toBe(30_000);
    now = 60_000;
    expect(limit.take('s', 2)).toBe(true);
  });
});

describe('messages', () => {
  const messages = [
    { role: 'user', content: { type: 'text', text: 'Look at this' } },
    { role: 'user', content: [{ type: 'text', text: 'and' }, { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }] },
    { role: 'assistant', content: { type: 'text', text: 'I see.' } },
  ] as SamplingMessage[];

  it('shows each message\'s text and names what else it carries', () => {
    expect(showMessages(messages)).toEqual([
      { role: 'user', text: 'Look at this', attachments: [] },
      { role: 'user', text: 'and', attachments: ['image (image/png, 6 bytes)'] },
      { role: 'assistant', text: 'I see.', attachments: [] },
    ]);
  });

  it('an edit replaces a message\'s text and keeps its image; null keeps a message', () => {
    const edited = withEditedTexts(messages, [null, 'and also', 'Noted.']);
    expect(edited[0]).toBe(messages[0]);
    expect(edited[1]!.content).toEqual([{ type: 'text', text: 'and also' }, { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }]);
    expect(toModelMessages(edited)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look at this' }] },
      { role: 'user', content: [{ type: 'text', text: 'and also' }, { type: 'image', image: 'aGVsbG8=', mediaType: 'image/png' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
    ]);
  });

  it('refuses tool use, which Harbor does not declare', () => {
    expect(() => refuseToolUse({ messages, tools: [] })).toThrow(ProtocolError);
    expect(() => refuseToolUse({ messages: [{ role: 'assistant', content: { type: 'tool_use', id: '1', name: 'x', input: {} } } as unknown as SamplingMessage] })).toThrow(
      /does not offer tool use/,
    );
    expect(() => refuseToolUse({ messages })).not.toThrow();
  });
});

describe('the review of a sampling request', () => {
  const stage = (s: 'request' | 'response'): Omit<SamplingRequestData, 'id' | 'deadline'> => ({
    server: 'srv',
    stage: s,
    messages: [{ role: 'user', text: 'q', attachments: [] }],
    maxTokens: 100,
    modelHints: [],
    model: 'openai-compatible:m',
  });

  it('refuses an edit that does not fit its stage (the stage keeps waiting), then settles', async () => {
    const events = checkedEvents();
    const asked: SamplingRequestData[] = [];
    const resolved: string[] = [];
    disposeAfterTest(events.onEvent('sampling.request', (r) => asked.push(r)));
    disposeAfterTest(events.onEvent('sampling.resolved', (r) => resolved.push(r.action)));
    const review = disposeAfterTest(samplingReview(events));

    const request = review.ask(stage('request'), new AbortController().signal);
    const id = asked[0]!.id;
    expect(review.answer(id, { action: 'approve', maxTokens: 500 })).toEqual({ kind: 'refused', problem: "maxTokens may be lowered, not raised above the server's 100" });
    expect(review.answer(id, { action: 'approve', messages: ['a', 'b'] }).kind).toBe('refused');
    expect(review.answer(id, { action: 'approve', text: 'answer' }).kind).toBe('refused');
    expect(review.answer(id, { action: 'approve', maxTokens: 10, messages: ['edited'] })).toEqual({ kind: 'settled' });
    expect(await request).toEqual({ action: 'approve', maxTokens: 10, messages: ['edited'] });

    const response = review.ask(stage('response'), new AbortController().signal);
    const second = asked[1]!.id;
    expect(review.answer(second, { action: 'approve', systemPrompt: 'x' }).kind).toBe('refused');
    expect(review.answer(second, { action: 'approve', text: 'better' })).toEqual({ kind: 'settled' });
    expect(await response).toEqual({ action: 'approve', text: 'better' });
    expect(resolved).toEqual(['approve', 'approve']);
  });

  it('an abort (the server gave up) or the deadline is a denial', async () => {
    const events = checkedEvents();
    const review = disposeAfterTest(samplingReview(events, 20));
    const abort = new AbortController();
    const aborted = review.ask(stage('request'), abort.signal);
    abort.abort();
    expect(await aborted).toEqual({ action: 'deny' });
    expect(await review.ask(stage('request'), new AbortController().signal)).toEqual({ action: 'deny' });
    expect(review.requests()).toEqual([]);
  });
});
