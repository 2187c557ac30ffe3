/**
 * Code mode against direct tool calls, on one multi-step task across two servers: "what do the
 * open orders come to in EUR?" — list the orders, keep the open ones, read each, convert each
 * amount (13 dependent calls over the shop fixture's orders and rates servers). Both arms are real chat
 * turns through the Host against the scripted OpenAI-compatible model:
 *
 * - direct: the model calls the tools itself, batching what does not depend on each other (one
 *   step lists, one reads the three orders, one converts the three amounts, one answers);
 * - run_code: the model writes one script that makes the same 7 calls; only its result comes back.
 *
 * Measured side by side: model round trips, tokens sent to the model over the whole turn
 * (o200k_base: every request's messages plus its tool definitions), and wall time. Plus the same
 * for a one-call task (where code mode has nothing to save), the size of the tool definitions
 * per request in each mode ("off", "on", "auto"), and the sandbox's start-up: the first script
 * (worker thread + QuickJS engine) and later ones (a warm worker, a fresh engine runtime each).
 * Target: the run_code arm sends ≤ 50 % of the direct arm's tokens.
 */
import { join } from 'node:path';
import { DEFAULT_CODE_LIMITS } from '../main/host/code-mode/limits';
import { CodeSandbox } from '../main/host/code-mode/sandbox';
import { loadTokenCounter, toolTokens, type TokenCounter } from '../main/host/tools/tokens';
import { startScriptedModel, type RecordedRequest, type ScriptEntry } from '../test/fixtures/model/scripted-model';
import { ratioFigure, type Figure } from './result';
import { REPO, assertAllReady, createBenchHost, marker, median, nodeServer, now } from './support';

const SHOP = join(REPO, 'test/fixtures/servers/modern/shop-server.mjs');
const ANSWER = 781.7;
/** A real model's time per answer, for the wall-time estimate (the scripted model takes none). */
const MODEL_SECONDS = 1.5;

export const TOTAL_SCRIPT = `const { orders } = await tools.orders.list_orders({});
const open = orders.filter((o) => o.status === 'open');
const amounts = [];
for (const { id } of open) {
  const order = await tools.orders.get_order({ id });
  const { amount } = await tools.rates.convert({ amount: order.amount, from: order.currency, to: 'EUR' });
  amounts.push(amount);
}
return { orders: open.length, totalEur: Math.round(amounts.reduce((a, b) => a + b, 0) * 100) / 100 };`;

export interface CodeModeOptions {
  readonly repetitions: number;
  readonly laterScripts: number;
}

interface ArmResult {
  readonly roundTrips: number;
  readonly tokens: number;
  readonly definitionTokens: number;
  readonly wallMs: number;
  readonly answer: string;
}

/** Every tool result the model has seen in this turn, parsed (the shop's results are JSON text). */
const results = (request: RecordedRequest) => request.toolResults.map((r) => JSON.parse(r.content) as Record<string, unknown>);
const lastResults = (request: RecordedRequest, n: number) => results(request).slice(-n);
let nextId = 0;
const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args, id: `call_${++nextId}` });

/** The direct arm's model: each step needs the results of the one before. */
const DIRECT_TASK: ScriptEntry[] = [
  { toolCalls: [call('orders__list_orders', {})] },
  (request) => {
    const [{ orders }] = lastResults(request, 1) as [{ orders: { id: string; status: string }[] }];
    return { toolCalls: orders.filter((o) => o.status === 'open').map((o) => call('orders__get_order', { id: o.id })) };
  },
  (request) => {
    const orders = results(request).filter((r): r is { amount: number; currency: string } => 'currency' in r);
    return { toolCalls: orders.map((o) => call('rates__convert', { amount: o.amount, from: o.currency, to: 'EUR' })) };
  },
  (request) => {
    const converted = results(request).filter((r): r is { amount: number; rate: number } => 'rate' in r);
    const total = converted.reduce((sum, r) => sum + r.amount, 0);
    return { text: `The open orders come to ${Math.round(total * 100) / 100} EUR.` };
  },
];

const CODE_TASK: ScriptEntry[] = [
  { toolCalls: [call('run_code', { code: TOTAL_SCRIPT })] },
  (request) => {
    const { result } = lastResults(request, 1)[0] as { result: { totalEur: number } };
    return { text: `The open orders come to ${result.totalEur} EUR.` };
  },
];

const DIRECT_ONE_CALL: ScriptEntry[] = [{ toolCalls: [call('orders__get_order', { id: 'A-1' })] }, { text: 'A-1 is an open order of 120 USD.' }];
const CODE_ONE_CALL: ScriptEntry[] = [{ toolCalls: [call('run_code', { code: "return await tools.orders.get_order({ id: 'A-1' });" })] }, { text: 'A-1 is an open order of 120 USD.' }];

function requestTokens(count: TokenCounter, request: RecordedRequest): { total: number; definitions: number } {
  const definitions = request.tools.reduce((n, t) => n + toolTokens(count, { name: t.name, description: t.description, inputSchema: t.parameters }), 0);
  return { total: definitions + count(JSON.stringify(request.messages)), definitions };
}

async function runArm(label: string, codeMode: 'off' | 'on' | 'auto', script: readonly ScriptEntry[], count: TokenCounter): Promise<ArmResult> {
  const model = await startScriptedModel({ script });
  const mark = marker(`code-${label}`);
  const servers = {
    orders: nodeServer(SHOP, ['--part', 'orders'], mark),
    rates: nodeServer(SHOP, ['--part', 'rates'], mark),
  };
  const { host, dispose } = await createBenchHost(`code-${label}`, servers, { registry: { model: model.modelConfig(), chat: { codeMode } } });
  try {
    // Connect and warm up first (a turn that only says hello): what is measured is the task.
    await (await host.chat.send({ text: 'hello', approveOnce: true })).done.catch(() => undefined);
    model.requests.length = 0;
    assertAllReady(host);
    const started = now();
    const outcome = await (await host.chat.send({ text: 'What do the open orders come to, in EUR?', approveOnce: true })).done;
    const wallMs = now() - started;
    if (outcome.status !== 'completed') throw new Error(`the ${label} turn ended ${outcome.status}: ${outcome.note ?? ''}`);
    const measured = model.requests.map((r) => requestTokens(count, r));
    return {
      roundTrips: model.requests.length,
      tokens: measured.reduce((n, m) => n + m.total, 0),
      definitionTokens: measured[0]?.definitions ?? 0,
      wallMs,
      answer: outcome.text,
    };
  } finally {
    await dispose();
    await model.close();
  }
}

/** Runs an arm `repetitions` times (the model's script is replayed each time): median wall time. */
async function measureArm(label: string, codeMode: 'off' | 'on' | 'auto', script: readonly ScriptEntry[], count: TokenCounter, repetitions: number): Promise<ArmResult> {
  const runs: ArmResult[] = [];
  // The hello turn first, then the task.
  for (let i = 0; i < repetitions; i += 1) runs.push(await runArm(`${label}-${i}`, codeMode, [{ text: 'hi' }, ...script], count));
  return { ...runs[0]!, wallMs: median(runs.map((r) => r.wallMs)) };
}

async function sandboxStartup(laterScripts: number): Promise<{ firstMs: number; laterMs: number }> {
  const sandbox = new CodeSandbox();
  const broker = { callTool: async () => ({ content: [{ type: 'text' as const, text: 'ok' }] }) };
  const script = { code: 'return await tools.probe.ping({});', api: { probe: ['ping'] }, limits: DEFAULT_CODE_LIMITS, broker };
  try {
    let started = now();
    const first = await sandbox.run(script);
    const firstMs = now() - started;
    if (!first.ok) throw new Error(`the sandbox's first script failed: ${first.error?.message ?? ''}`);
    const later: number[] = [];
    for (let i = 0; i < laterScripts; i += 1) {
      started = now();
      await sandbox.run(script);
      later.push(now() - started);
    }
    return { firstMs, laterMs: median(later) };
  } finally {
    await sandbox.dispose();
  }
}

export async function benchCodeMode(options: CodeModeOptions): Promise<Figure> {
  const count = await loadTokenCounter();
  const direct = await measureArm('direct', 'off', DIRECT_TASK, count, options.repetitions);
  const code = await measureArm('code', 'on', CODE_TASK, count, options.repetitions);
  const auto = await measureArm('auto', 'auto', CODE_TASK, count, 1);
  const oneDirect = await measureArm('one-direct', 'off', DIRECT_ONE_CALL, count, 1);
  const oneCode = await measureArm('one-code', 'on', CODE_ONE_CALL, count, 1);
  const oneAuto = await measureArm('one-auto', 'auto', DIRECT_ONE_CALL, count, 1);
  const startup = await sandboxStartup(options.laterScripts);

  const problems: string[] = [];
  for (const [arm, result] of [['direct', direct], ['run_code', code], ['auto', auto]] as const) {
    if (!result.answer.includes(String(ANSWER))) problems.push(`the ${arm} arm answered "${result.answer}", not ${ANSWER}`);
  }
  const ratio = code.tokens / direct.tokens;
  const fmt = (n: number) => n.toFixed(2);
  return ratioFigure({
    name: 'code mode tokens per task',
    measured: `run_code ${code.tokens} tokens in ${code.roundTrips} round trips, direct ${direct.tokens} tokens in ${direct.roundTrips}`,
    value: ratio,
    target: 0.5,
    problems,
    notes: [
      'task: total of the open orders in EUR — list 18 orders, keep the 6 open, read each, convert each: 13 dependent calls over two servers (orders, rates); scripted model, real Host and servers',
      `model round trips: direct ${direct.roundTrips}, run_code ${code.roundTrips} (ratio ${fmt(code.roundTrips / direct.roundTrips)})`,
      `tokens sent to the model over the turn: direct ${direct.tokens}, run_code ${code.tokens} (ratio ${fmt(ratio)})`,
      `the same with run_code offered beside the tools ("auto", the default): ${auto.tokens} tokens, ${auto.roundTrips} round trips (ratio to direct ${fmt(auto.tokens / direct.tokens)})`,
      `wall time of the turn (median of ${options.repetitions}; the scripted model answers at once): direct ${direct.wallMs.toFixed(0)} ms, run_code ${code.wallMs.toFixed(0)} ms (ratio ${fmt(code.wallMs / direct.wallMs)})`,
      `  with a model that takes ${MODEL_SECONDS} s per answer, add that per round trip: direct ≈ ${((direct.wallMs + direct.roundTrips * MODEL_SECONDS * 1000) / 1000).toFixed(1)} s, run_code ≈ ${((code.wallMs + code.roundTrips * MODEL_SECONDS * 1000) / 1000).toFixed(1)} s (estimate)`,
      `one-call task: direct ${oneDirect.tokens} tokens / ${oneDirect.roundTrips} round trips, run_code ${oneCode.tokens} / ${oneCode.roundTrips}, both offered ("auto") ${oneAuto.tokens} / ${oneAuto.roundTrips}`,
      `tool definitions per request: tools ("off") ${oneDirect.definitionTokens} tokens, run_code only ("on") ${oneCode.definitionTokens}, both ("auto") ${oneAuto.definitionTokens}`,
      `sandbox start-up: first script ${startup.firstMs.toFixed(1)} ms (worker thread + QuickJS engine), later scripts ${startup.laterMs.toFixed(1)} ms (median of ${options.laterScripts}; fresh engine runtime each)`,
    ],
  });
}
