/**
 * A message sent before any model is set (issue #31, item 1), through the contract as the page
 * sends it: refused with the reason, and nothing stored — no conversation, no title, no turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import type { Result } from '../../preload/contract';
import { createTestHost, type TestHost } from '../helpers/host';

let test: TestHost | undefined;

afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('chat without a model', () => {
  it('a message sent without a model is refused and creates no conversation', async () => {
    // No Ollama to find either: the answer does not depend on this machine.
    test = await createTestHost({}, { ollamaUrl: 'http://127.0.0.1:9' });
    const dispatch = createDispatcher(bindCommands(test.host));

    const sent = (await dispatch('chat.send', { text: 'Hello?' })) as Result<unknown>;
    expect(sent.ok).toBe(false);
    if (sent.ok) return;
    expect(sent.error.code).toBe('MODEL_NOT_CONFIGURED');
    // A regenerate or a toolset with the first message changes nothing either.
    const withToolset = (await dispatch('chat.send', { text: 'Hello again', toolset: 'none' })) as Result<unknown>;
    expect(withToolset.ok).toBe(false);

    const listed = (await dispatch('conversations.list', {})) as Result<unknown[]>;
    expect(listed).toEqual({ ok: true, value: [] });
    expect(test.host.chat.list()).toEqual([]);
  });
});
