/**
 * A long conversation opens without its large tool results (#32 goal 5): with `resultsOver`, the
 * reply of conversations.open carries a preview of each result above the threshold, and
 * conversations.result gives that result whole (the card opened, its app, the model, the export).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedConversation } from '../../bench/fixtures/long-conversation';
import { createDispatcher } from '../../main/dispatch';
import { bindCommands } from '../../main/contract-handlers';
import type { Host } from '../../main/host/host';
import { Redactor } from '../../main/host/secrets/redactor';
import type { ChatToolCall, Conversation } from '../../preload/contract';
import { openHostOn } from '../helpers/host';

let host: Host | undefined;
let dir: string | undefined;

afterEach(async () => {
  await host?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
  host = undefined;
  dir = undefined;
});

function calls(conversation: Conversation): Array<{ turnId: string; call: ChatToolCall }> {
  return conversation.turns.flatMap((turn) => turn.items.flatMap((item) => (item.kind === 'toolCall' ? [{ turnId: turn.id, call: item.call }] : [])));
}

describe('conversations.open with resultsOver', () => {
  it('sends a 200 kB result as a preview, and conversations.result gives it whole', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-previews-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: {} }));
    // Ten turns: the first tool result is 200 kB, the other nine 1.5 kB.
    const seeded = seedConversation(dir, 10);
    host = await openHostOn(dir);
    const dispatch = createDispatcher(bindCommands(host));

    const whole = (await dispatch('conversations.open', { id: seeded.id })) as { ok: true; value: Conversation };
    expect(whole.ok).toBe(true);
    expect(JSON.stringify(whole).length).toBeGreaterThan(200_000);
    const big = calls(whole.value)[0]!;
    expect(big.call.result!.omitted).toBeUndefined();

    const previewed = await dispatch('conversations.open', { id: seeded.id, resultsOver: 16_384 });
    expect(previewed.ok).toBe(true);
    // The reply is the small results and the preview: under 40 kB, not the 200 kB result.
    expect(JSON.stringify(previewed).length).toBeLessThan(40_000);
    const shown = calls((previewed as { value: Conversation }).value);
    expect(shown).toHaveLength(10);
    const preview = shown[0]!.call.result!;
    expect(preview.omitted).toEqual({ chars: JSON.stringify(big.call.result).length, blocks: 1, images: 0 });
    expect(preview.isError).toBe(false);
    expect((preview.content[0] as { text: string }).text.length).toBeLessThan(1_000);
    expect((big.call.result!.content[0] as { text: string }).text.startsWith((preview.content[0] as { text: string }).text.slice(0, -1))).toBe(true);
    // The small results come whole.
    expect(shown.slice(1).every((c) => c.call.result!.omitted === undefined)).toBe(true);
    expect(shown[1]!.call.result).toEqual(calls(whole.value)[1]!.call.result);

    const fetched = await dispatch('conversations.result', { id: seeded.id, turnId: big.turnId, callId: big.call.id });
    expect(fetched).toEqual({ ok: true, value: big.call.result });
    expect(await dispatch('conversations.result', { id: seeded.id, turnId: big.turnId, callId: 'no-such-call' })).toMatchObject({ ok: false, error: { code: 'CONVERSATION_NOT_FOUND' } });
    // The export still has every result whole.
    const exported = (await dispatch('conversations.export', { id: seeded.id, format: 'json' })) as { value: { content: string } };
    expect(exported.value.content).toContain(JSON.stringify((big.call.result!.content[0] as { text: string }).text).slice(-2_000));
  });

  it('cuts a preview from the masked result: a secret across the cut leaves no part of itself in the preview', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-previews-'));
    writeFileSync(join(dir, 'harbor.json'), JSON.stringify({ mcpServers: {} }));
    const seeded = seedConversation(dir, 1);
    const redactor = new Redactor();
    // The raw result first: the redactor knows no secret yet.
    host = await openHostOn(dir, { redactor });
    const open = async (resultsOver?: number) => {
      const reply = (await createDispatcher(bindCommands(host!))('conversations.open', { id: seeded.id, ...(resultsOver ? { resultsOver } : {}) })) as { value: Conversation };
      return (calls(reply.value)[0]!.call.result!.content[0] as { text: string }).text;
    };
    const raw = await open();
    // A secret the result holds from character 590 to 630: a cut at 600 falls inside it.
    const secret = raw.slice(590, 630);
    redactor.add(secret);
    const masked = await open();
    expect(masked).not.toContain(secret);
    const preview = await open(16_384);
    // Cut after masking: the preview is the masked text's start, not the raw text's with 10 of the secret's 40 characters.
    expect(preview).toBe(`${masked.slice(0, 600)}…`);
    expect(preview).not.toContain(secret.slice(0, 10));
  });
});
