/**
 * Code mode in the chat: a real Host, the shop fixture's two servers as child processes, the
 * scripted model on 127.0.0.1 writing run_code scripts. Each brokered call goes through the
 * consent gate like a direct call (the person approves one and denies the next), shows live on the
 * run_code card, and Stop ends the script and cancels the call in flight.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatToolCall, EventPayload } from '../../preload/contract';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { disposeAfterTest } from '../helpers/dispose-after-test';
import { FIXTURES, NODE, waitFor, type TestHost } from '../helpers/host';
import { TOTAL_OPEN_IN_EUR, TOTAL_OPEN_IN_EUR_LINES } from '../fixtures/code-mode/shop-scripts';
import { createChatHost } from '../fixtures/model/chat-host';
import { startScriptedModel, type ScriptedModel } from '../fixtures/model/scripted-model';

const SHOP = join(FIXTURES, 'modern/shop-server.mjs');
let model: ScriptedModel | undefined;
let test: TestHost | undefined;
const cleanup: (() => void)[] = [];

afterEach(async () => {
  await test?.dispose();
  await model?.close();
  for (const fn of cleanup.splice(0)) fn();
  test = undefined;
  model = undefined;
});

function shop(eventsFile?: string): Record<string, Record<string, unknown>> {
  return {
    orders: { command: NODE, args: [SHOP, '--part', 'orders'], trusted: true },
    rates: { command: NODE, args: [SHOP, '--part', 'rates'], ...(eventsFile ? { env: { EVENTS_FILE: eventsFile } } : {}) },
  };
}

function events<K extends 'chat.toolCall' | 'consent.request'>(t: TestHost, name: K): EventPayload<K>[] {
  const seen: EventPayload<K>[] = [];
  disposeAfterTest(t.host.events.onEvent(name, (payload) => seen.push(payload)));
  return seen;
}

const runCode = (code: string) => ({ toolCalls: [{ name: 'run_code', arguments: { code } }] });

describe('code mode in the chat', () => {
  it('offers run_code with the typed API ("on"), runs the script\'s calls and gives the model its result', async () => {
    model = await startScriptedModel({ script: [runCode(TOTAL_OPEN_IN_EUR), { text: 'The open orders come to 781.7 EUR.' }] });
    test = await createChatHost(shop(), { model: model.modelConfig(), chat: { codeMode: 'on' } });
    const cards = events(test, 'chat.toolCall');
    const turn = await test.host.chat.send({ text: 'What do the open orders come to, in EUR?', approveOnce: true });
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'completed', text: 'The open orders come to 781.7 EUR.', steps: 2 });

    const first = model.requests[0]!;
    expect(first.toolNames).toEqual(['run_code']);
    const description = first.tools[0]!.description ?? '';
    expect(description).toContain('declare const tools: {');
    expect(description).toContain('convert(args: { amount: number; from: "EUR" | "USD" | "GBP"; to: "EUR" | "USD" | "GBP" }): Promise<{ amount: number; rate: number }>;');
    expect(description).toContain('"order-note"(args: { id: string }): Promise<any>;');
    expect(first.system).toContain('run_code');
    const logs = TOTAL_OPEN_IN_EUR_LINES;
    expect(JSON.parse(model.requests[1]!.toolResults[0]!.content)).toEqual({ result: { total: 781.7, orders: 6 }, logs });

    // Live: the card showed each call as it ran, then the whole run.
    const live = cards.map((e) => e.call);
    expect(live.every((c) => c.name === 'run_code' && c.code?.script === TOTAL_OPEN_IN_EUR)).toBe(true);
    expect(live.some((c) => c.code?.calls.some((call) => call.status === 'running'))).toBe(true);
    const last = live.at(-1)!;
    expect(last).toMatchObject({ status: 'done', approval: 'not-needed', code: { status: 'done', result: { total: 781.7, orders: 6 } } });
    expect(last.code!.calls.map((c) => `${c.server}.${c.tool}:${c.status}:${c.approval}`)).toEqual([
      'orders.list_orders:done:approved-once',
      ...Array<string[]>(6).fill(['orders.get_order:done:approved-once', 'rates.convert:done:approved-once']).flat(),
    ]);
    expect(last.code!.logs.map((l) => l.text)).toEqual(logs);

    // After a reload the card is the same.
    const stored = test.host.chat.open(turn.conversationId).turns[0]!.items.find((i) => i.kind === 'toolCall');
    expect(stored).toMatchObject({ kind: 'toolCall', call: { name: 'run_code', status: 'done', code: { status: 'done', result: { total: 781.7, orders: 6 }, calls: last.code!.calls } } });
    expect((stored as { call: ChatToolCall }).call.result?.structuredContent).toBeUndefined();
  });

  it('"auto" offers run_code beside the tools; "off" does not offer it', async () => {
    model = await startScriptedModel({ script: [{ text: 'hi' }, { text: 'hi' }] });
    test = await createChatHost(shop(), { model: model.modelConfig(), chat: { codeMode: 'auto' } });
    await (await test.host.chat.send({ text: 'hello', approveOnce: true })).done;
    expect(model.requests[0]!.toolNames).toEqual(['orders__list_orders', 'orders__get_order', 'orders__order-note', 'orders__receipt', 'orders__refund', 'rates__convert', 'rates__wait', 'run_code']);
    expect(model.requests[0]!.system).toMatch(/several tool calls that build on each other.*run_code/);
    const configPath = test.host.appInfo().configPath;
    writeFileSync(configPath, JSON.stringify({ ...(JSON.parse(readFileSync(configPath, 'utf8')) as object), chat: { codeMode: 'off' } }));
    await test.host.registry.reload();
    await (await test.host.chat.send({ text: 'hello' })).done;
    expect(model.requests[1]!.toolNames).not.toContain('run_code');
  });

  it('with tool search, run_code is described without the API and search results say how a script calls each tool', async () => {
    model = await startScriptedModel({
      script: [
        { toolCalls: [{ name: 'search_tools', arguments: { query: 'convert currency' } }] },
        runCode(`return await tools.rates.convert({ amount: 10, from: 'GBP', to: 'EUR' });`),
        { text: 'done' },
      ],
    });
    test = await createChatHost(shop(), { model: model.modelConfig(), chat: { codeMode: 'on', toolSearch: 'on' } });
    const outcome = await (await test.host.chat.send({ text: 'convert', approveOnce: true })).done;
    expect(outcome.status).toBe('completed');
    expect(model.requests[0]!.toolNames).toEqual(['search_tools', 'run_code']);
    expect(model.requests[0]!.tools[1]!.description).not.toContain('declare const tools');
    const found = JSON.parse(model.requests[1]!.toolResults[0]!.content) as { matches: { name: string; call?: string }[]; next: string };
    expect(found.matches[0]).toMatchObject({
      name: 'rates__convert',
      call: 'tools.rates.convert(args: { amount: number; from: "EUR" | "USD" | "GBP"; to: "EUR" | "USD" | "GBP" }): Promise<{ amount: number; rate: number }>',
    });
    expect(found.next).toContain('run_code');
    expect(JSON.parse(model.requests[2]!.toolResults.at(-1)!.content)).toEqual({ result: { amount: 11.5, rate: 1.15 } });
  });

  it('asks consent per call: the person approves the first call and denies the second, which never reaches its server', async () => {
    const code = `const { amount } = await tools.rates.convert({ amount: 80, from: 'GBP', to: 'EUR' });\nawait tools.orders.refund({ id: 'A-2' });\nreturn amount;`;
    model = await startScriptedModel({ script: [runCode(code), { text: 'The refund was not allowed.' }] });
    test = await createChatHost(shop(), { model: model.modelConfig(), chat: { codeMode: 'on' }, host: { interactiveConsent: true } });
    const asked = events(test, 'consent.request');
    const cards = events(test, 'chat.toolCall');
    disposeAfterTest(
      test.host.events.onEvent('consent.request', (request) => {
        setTimeout(() => test!.host.consent.respond(request.id, request.tool?.name === 'convert' ? 'once' : 'deny'), 20);
      }),
    );
    const turn = await test.host.chat.send({ text: 'refund A-2' });
    expect((await turn.done).status).toBe('completed');

    expect(asked.map((r) => `${r.server}.${r.tool?.name}`)).toEqual(['rates.convert', 'orders.refund']);
    expect(asked[1]).toMatchObject({ conversationId: turn.conversationId, arguments: { id: 'A-2' } });
    // Each call showed as awaiting consent on the card while its dialog was open.
    const seen = cards.flatMap((e) => e.call.code?.calls ?? []).map((c) => `${c.tool}:${c.status}`);
    expect(seen).toContain('convert:awaiting-consent');
    expect(seen).toContain('refund:awaiting-consent');
    const card = cards.at(-1)!.call.code!;
    expect(card.calls).toMatchObject([
      { server: 'rates', tool: 'convert', status: 'done', approval: 'approved-once' },
      { server: 'orders', tool: 'refund', status: 'error', approval: 'denied', error: { code: 'CONSENT_DENIED' } },
    ]);
    expect(card.error).toMatchObject({ code: 'CONSENT_DENIED' });
    expect(model.requests[1]!.toolResults[0]!.content).toMatch(/^The script failed \(CONSENT_DENIED\).*\nTool calls it made \(2\): rates.convert ok, orders.refund CONSENT_DENIED/s);
    // On the wire: convert went to its server, refund never did.
    const calls = test.host.traffic.list().filter((e) => e.direction === 'out' && e.text.includes('"tools/call"'));
    expect(calls.some((e) => e.server === 'rates' && e.text.includes('"convert"'))).toBe(true);
    expect(calls.some((e) => e.server === 'orders' && e.text.includes('"refund"'))).toBe(false);
  });

  it('Stop ends the script and cancels its call in flight (the server sees the cancellation)', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'harbor-code-stop-'));
    cleanup.push(() => rmSync(scratch, { recursive: true, force: true }));
    const file = join(scratch, 'events.txt');
    model = await startScriptedModel({ script: [runCode(`console.log('waiting'); return await tools.rates.wait({ ms: 60000 });`), { text: 'never asked' }] });
    test = await createChatHost(shop(file), { model: model.modelConfig(), chat: { codeMode: 'on' } });
    const cards = events(test, 'chat.toolCall');
    const turn = await test.host.chat.send({ text: 'wait', approveOnce: true });
    await waitFor(() => cards.some((e) => e.call.code?.calls.some((c) => c.tool === 'wait' && c.status === 'running')), 'the script\'s call to be running', 20_000);
    expect(test.host.chat.stop(turn.conversationId)).toBe(true);
    const outcome = await turn.done;
    expect(outcome.status).toBe('stopped');
    expect(model.requests).toHaveLength(1);
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').includes('cancelled wait'), 'the server to record the cancellation', 10_000);
    const last = cards.at(-1)!.call;
    expect(last).toMatchObject({ status: 'error', error: { code: 'CANCELLED' }, code: { status: 'error', logs: [{ level: 'log', text: 'waiting' }] } });
    expect(last.code!.calls[0]).toMatchObject({ tool: 'wait', status: 'error', error: { code: 'CANCELLED' } });
    expect(test.host.chat.open(turn.conversationId).turns[0]!.status).toBe('stopped');
  });

  it('a script sees a secret a server echoes masked, never its value', async () => {
    const secret = `sk-code-${randomBytes(12).toString('hex')}`;
    const server = { command: NODE, args: [join(FIXTURES, 'echo-env.mjs')], env: { TOKEN: '${secret:code-token}' } };
    model = await startScriptedModel({ script: [runCode(`const r = await tools.env.get_env({ name: 'TOKEN' }); console.log(r.value); return r;`), { text: 'ok' }] });
    test = await createChatHost({ env: server }, { model: model.modelConfig(), chat: { codeMode: 'on' }, host: { secrets: new MemorySecretStore() } });
    await test.host.secrets.set('code-token', secret);
    const cards = events(test, 'chat.toolCall');
    const turn = await test.host.chat.send({ text: 'show the token', approveOnce: true });
    expect((await turn.done).status).toBe('completed');
    const seen = JSON.stringify([model.requests, cards, test.host.chat.open(turn.conversationId)]);
    expect(seen).not.toContain(secret);
    expect(cards.at(-1)!.call.code!.logs[0]!.text).toContain('***');
  });

  it('headless without approval: the first call needing consent ends the script and the turn (consentRequired)', async () => {
    model = await startScriptedModel({ script: [runCode(`await tools.orders.list_orders({});\nreturn await tools.orders.refund({ id: 'A-2' });`), { text: 'unreached' }] });
    test = await createChatHost(shop(), { model: model.modelConfig(), chat: { codeMode: 'on' } });
    const cards = events(test, 'chat.toolCall');
    const outcome = await (await test.host.chat.send({ text: 'refund' })).done;
    expect(outcome.status).toBe('consentRequired');
    expect(model.requests).toHaveLength(1);
    expect(cards.at(-1)!.call.code!.calls).toMatchObject([
      { tool: 'list_orders', status: 'done', approval: 'approved' },
      { tool: 'refund', status: 'error', approval: 'required', error: { code: 'CONSENT_REQUIRED' } },
    ]);
  });
});
