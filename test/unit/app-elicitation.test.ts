/**
 * The app's questions for a server (main/host/servers/app-elicitation.ts) on the one primitive:
 * one `elicitation.request` per question (with the chat call it belongs to), one
 * `elicitation.resolved` however it ends, URL mode never carrying content, a form answer checked
 * against the schema before it settles anything.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { EventName } from '../../preload/contract';
import { JsonSchemaValidator } from '../../main/host/json-schema';
import { elicitationAnswer, elicitationQuestions, elicitationResponder } from '../../main/host/servers/app-elicitation';
import { RunningRequestScope } from '../../main/host/servers/request-scope';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { checkedEvents } from '../helpers/checked-events';

function setup() {
  const events = checkedEvents();
  const seen: { name: EventName; payload: unknown }[] = [];
  disposeAfterTest(events.on((name, payload) => seen.push({ name, payload })));
  const dialog = disposeAfterTest(elicitationQuestions(events, new JsonSchemaValidator()));
  return { dialog, respond: elicitationResponder(dialog), seen, lastId: () => (seen.filter((e) => e.name === 'elicitation.request').at(-1)!.payload as { id: string }).id };
}

const never = () => new AbortController().signal;

describe('elicitation questions', () => {
  it('URL mode: an accept never carries content, whatever the answer sent', async () => {
    const { dialog, respond, seen, lastId } = setup();
    const result = respond('pay', { mode: 'url', message: 'Finish paying', url: 'https://pay.example.com/x', elicitationId: 'e1' }, { signal: never() });
    expect(dialog.answer(lastId(), elicitationAnswer('accept', { card: '4111' }))).toEqual({ kind: 'settled' });
    expect(await result).toEqual({ action: 'accept' } satisfies ElicitResult);
    expect(seen.map((e) => e.name)).toEqual(['elicitation.request', 'elicitation.resolved']);
    expect(seen[0]!.payload).toMatchObject({ server: 'pay', mode: 'url', url: 'https://pay.example.com/x' });
  });

  it('carries the chat call the request belongs to', async () => {
    const { dialog, respond, seen, lastId } = setup();
    const scope = new RunningRequestScope('feature', 'calling tool ask_name', { conversationId: 'c1', turnId: 't1', toolCallId: 'k1' });
    const result = respond('feature', { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { signal: never(), request: scope });
    expect(seen[0]!.payload).toMatchObject({ conversationId: 'c1', turnId: 't1', toolCallId: 'k1', mode: 'form' });
    dialog.answer(lastId(), elicitationAnswer('decline'));
    expect(await result).toEqual({ action: 'decline' });
  });

  it('a form answer that does not fit is refused and the question keeps waiting; a fitting one is sent cleaned', async () => {
    const { dialog, respond, seen, lastId } = setup();
    const schema = { type: 'object' as const, properties: { age: { type: 'integer' as const, maximum: 150 }, tz: { type: 'string' as const, default: 'UTC' } }, required: ['age'] };
    const result = respond('s', { message: 'Age?', requestedSchema: schema }, { signal: never() });
    const id = lastId();
    const refused = dialog.answer(id, elicitationAnswer('accept', { age: 200 }));
    expect(refused).toEqual({ kind: 'refused', problem: { message: '"age" must be at most 150 (got 200)', fields: [{ path: 'age', message: 'must be at most 150 (got 200)' }] } });
    expect(dialog.requests().map((q) => q.id)).toEqual([id]);
    expect(dialog.answer(id, elicitationAnswer('accept', { age: 42, extra: 1 }))).toEqual({ kind: 'settled' });
    expect(await result).toEqual({ action: 'accept', content: { age: 42, tz: 'UTC' } });
    expect(seen.filter((e) => e.name === 'elicitation.resolved')).toHaveLength(1);
  });

  it('the server giving up cancels the question, announced once', async () => {
    const { dialog, respond, seen } = setup();
    const controller = new AbortController();
    const result = respond('s', { message: 'Still there?', requestedSchema: { type: 'object', properties: {} } }, { signal: controller.signal });
    controller.abort();
    expect(await result).toEqual({ action: 'cancel' });
    expect(seen.filter((e) => e.name === 'elicitation.resolved').map((e) => e.payload)).toEqual([{ id: expect.any(String), action: 'cancel' }]);
    expect(dialog.requests()).toEqual([]);
  });
});
