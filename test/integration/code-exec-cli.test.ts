/**
 * `harbor exec` as a person or a CI job runs it: the built CLI (out/main/cli.js) as a child
 * process, two real MCP servers (the shop fixture's orders and rates), the script in a file or on
 * stdin. Consent is per call: a script approves nothing by itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel } from '../fixtures/model/scripted-model';
import { TOTAL_OPEN_IN_EUR, TOTAL_OPEN_IN_EUR_LINES } from '../fixtures/code-mode/shop-scripts';
import { runCli, tempRegistry } from '../helpers/cli';
import { FIXTURES, NODE } from '../helpers/host';

const SHOP = join(FIXTURES, 'modern/shop-server.mjs');
let registry: ReturnType<typeof tempRegistry> | undefined;

afterEach(() => {
  registry?.remove();
  registry = undefined;
});

function shop(extra: Record<string, unknown> = {}): string[] {
  registry = tempRegistry({
    orders: { command: NODE, args: [SHOP, '--part', 'orders'], trusted: true },
    rates: { command: NODE, args: [SHOP, '--part', 'rates'], trusted: true, env: { EVENTS_FILE: '' } },
  });
  const file = JSON.parse(readFileSync(registry.config, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> };
  file.mcpServers.rates!.env = { EVENTS_FILE: join(registry.dir, 'events.log') };
  writeFileSync(registry.config, JSON.stringify({ ...file, ...extra }, null, 2));
  return ['--config', registry.config, '--data-dir', registry.dir];
}

function script(name: string, code: string): string {
  const path = join(registry!.dir, name);
  writeFileSync(path, code);
  return path;
}

interface ExecJson {
  result?: unknown;
  error?: { code: string; message: string };
  logs: string[];
  calls: { server: string; tool: string; ms: number; ok: boolean }[];
}

describe('harbor exec', () => {
  it('runs a script of several dependent calls across two servers and prints one JSON object', async () => {
    const flags = shop();
    const run = await runCli([...flags, 'exec', script('total.js', TOTAL_OPEN_IN_EUR), '--yes', '--json']);
    expect(run.stderr).not.toMatch(/unexpected error/);
    expect(run.code).toBe(0);
    const [out, ...rest] = run.json<ExecJson>();
    expect(rest).toEqual([]);
    expect(out).toEqual({
      result: { total: 781.7, orders: 6 },
      logs: TOTAL_OPEN_IN_EUR_LINES,
      calls: expect.any(Array),
    });
    expect(out!.calls.map((c) => `${c.server}.${c.tool}`)).toEqual([
      'orders.list_orders',
      ...Array<string[]>(6).fill(['orders.get_order', 'rates.convert']).flat(),
    ]);
    for (const call of out!.calls) expect(call).toEqual({ server: call.server, tool: call.tool, ms: expect.any(Number), ok: true });
  });

  it('reads the script from stdin with "-", prints its lines as they come and its result last', async () => {
    const flags = shop();
    const run = await runCli([...flags, 'exec', '-', '--yes'], { input: `console.log('first'); return await tools.orders['order-note']({ id: 'A-2' });` });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('first\nOrder A-2 for Brian: paid.\n');
    expect(run.stderr).toContain('→ orders › order-note {"id":"A-2"}');
    expect(run.stderr).toMatch(/← orders › order-note ok \(\d+ ms\)/);
  });

  it('asks consent per call: the first call runs, the second needs consent, and the script ends before it reaches the server (exit 4)', async () => {
    const flags = shop();
    const code = `const { orders } = await tools.orders.list_orders({ status: 'paid' });\nawait tools.orders.refund({ id: orders[0].id });\nreturn 'refunded';`;
    const run = await runCli([...flags, 'exec', script('refund.js', code), '--json', '--trace']);
    expect(run.code).toBe(4);
    const [out] = run.json<ExecJson>();
    expect(out!.error).toMatchObject({ code: 'CONSENT_REQUIRED', message: expect.stringContaining('"refund" on "orders"') });
    expect(out!.calls).toEqual([
      { server: 'orders', tool: 'list_orders', ms: expect.any(Number), ok: true },
      { server: 'orders', tool: 'refund', ms: expect.any(Number), ok: false },
    ]);
    // The traffic on the wire: list_orders went out, refund never did.
    expect(run.stderr).toMatch(/-> .*"tools\/call".*"list_orders"/);
    expect(run.stderr).not.toMatch(/-> .*"tools\/call".*"refund"/);

    // Approving that one tool once lets the same script through; nothing else was approved.
    expect((await runCli([...flags, 'consent', 'grant', 'orders', 'refund'])).code).toBe(0);
    const again = await runCli([...flags, 'exec', script('refund.js', code), '--json']);
    expect(again.code).toBe(0);
    expect(again.json<ExecJson>()[0]!.result).toBe('refunded');
  });

  it('a failed call the script catches is its business; one it does not catch ends it with the tool\'s message (exit 1)', async () => {
    const flags = shop();
    const caught = await runCli([...flags, 'exec', '-', '--yes', '--json'], {
      input: `try { await tools.orders.refund({ id: 'A-1' }); } catch (e) { return { name: e.name, code: e.code, message: e.message }; }`,
    });
    expect(caught.code).toBe(0);
    expect(caught.json<ExecJson>()[0]!.result).toEqual({ name: 'ToolError', code: 'TOOL_ERROR', message: 'Order A-1 is open; only paid orders can be refunded.' });

    const uncaught = await runCli([...flags, 'exec', '-', '--yes', '--json'], { input: `await tools.orders.refund({ id: 'A-1' });` });
    expect(uncaught.code).toBe(1);
    expect(uncaught.json<ExecJson>()[0]!.error).toEqual({ code: 'TOOL_ERROR', message: expect.stringContaining('orders.refund: Order A-1 is open') });
  });

  it('a script that throws exits 1 and says where', async () => {
    const flags = shop();
    const run = await runCli([...flags, 'exec', script('bad.js', 'const x = 1;\nnull.boom;\n'), '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/harbor: TypeError: .*\(line 2\)/);
  });

  it('--timeout ends an endless script with an error naming the time limit, and cancels the call in flight', async () => {
    const flags = shop();
    const run = await runCli([...flags, 'exec', '-', '--yes', '--timeout', '700', '--json'], {
      input: `tools.rates.wait({ ms: 30000 }); await new Promise((r) => setTimeout(r, 100)); while (true) {}`,
    });
    expect(run.code).toBe(1);
    const [out] = run.json<ExecJson>();
    expect(out!.error?.code).toBe('TIME_LIMIT');
    expect(out!.error?.message).toMatch(/time limit \(700 ms/);
    expect(out!.calls).toEqual([{ server: 'rates', tool: 'wait', ms: expect.any(Number), ok: false }]);
    // The server saw the cancellation before Harbor stopped it.
    expect(readFileSync(join(registry!.dir, 'events.log'), 'utf8')).toContain('cancelled wait');
  });

  it('limits come from the registry and flags override them', async () => {
    const flags = shop({ chat: { codeLimits: { toolCalls: 2 } } });
    const fromRegistry = await runCli([...flags, 'exec', '-', '--yes', '--json'], { input: `for (const id of ['A-1', 'A-2', 'A-3']) await tools.orders.get_order({ id });` });
    expect(fromRegistry.code).toBe(1);
    expect(fromRegistry.json<ExecJson>()[0]!.error).toMatchObject({ code: 'CALL_LIMIT', message: expect.stringContaining('more than 2 tool calls') });
    const raised = await runCli([...flags, 'exec', '-', '--yes', '--json', '--max-calls', '3'], { input: `for (const id of ['A-1', 'A-2', 'A-3']) await tools.orders.get_order({ id });` });
    expect(raised.code).toBe(0);
  });

  it('usage errors exit 2: no such file, an empty script, a bad flag', async () => {
    const flags = shop();
    const missing = await runCli([...flags, 'exec', join(registry!.dir, 'nope.js')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const empty = await runCli([...flags, 'exec', '-'], { input: '  \n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('is empty');
    expect((await runCli([...flags, 'exec', '-', '--timeout', 'soon'], { input: 'return 1' })).code).toBe(2);
  });

  it('--types prints the typed API of every enabled tool', async () => {
    const flags = shop();
    const run = await runCli([...flags, 'exec', '--types', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('declare const tools: {');
    expect(run.stdout).toContain(
      'get_order(args: { /** The order id, e.g. "A-1". */ id: string }): Promise<{ id: string; customer: string; email: string; status: "open" | "paid" | "cancelled"; amount: number; currency: "EUR" | "USD" | "GBP"; placedAt: string; items: number }>;',
    );
    expect(run.stdout).toContain('"order-note"(args: { id: string }): Promise<any>;');
  });

  it('harbor chat runs the model\'s run_code script too, printing each of its calls', async () => {
    const model = await startScriptedModel({ script: [{ toolCalls: [{ name: 'run_code', arguments: { code: TOTAL_OPEN_IN_EUR } }] }, { text: 'They come to 781.7 EUR.' }] });
    try {
      const flags = shop({ model: model.modelConfig(), chat: { codeMode: 'on' } });
      const run = await runCli([...flags, 'chat', '--yes', 'What do the open orders come to in EUR?']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('They come to 781.7 EUR.\n');
      expect(run.stderr).toContain('→ run_code');
      expect(run.stderr).toContain('  → orders › list_orders {"status":"open"}');
      expect(run.stderr.match(/ {2}← rates › convert ok/g)).toHaveLength(6);
      expect(JSON.parse(model.requests[1]!.toolResults[0]!.content)).toMatchObject({ result: { total: 781.7, orders: 6 } });
    } finally {
      await model.close();
    }
  });
});
