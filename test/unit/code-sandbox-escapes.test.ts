/**
 * The code sandbox against scripts that try to get out or to take the host down: every global of
 * Node and the web that must not exist, the same reached through the Function constructor and
 * eval, import(), the host's own functions, an endless loop, a memory bomb, runaway output, too
 * many calls, deep recursion, a worker that stops answering. Real worker threads, real QuickJS.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CODE_LIMITS, type CodeLimits } from '../../main/host/code-mode/limits';
import type { CodeRunOutcome, ToolBroker } from '../../main/host/code-mode/script-run';
import { checkLeaksAtEndOfFile } from '../helpers/leak-tracker';
import { CodeSandbox } from '../../main/host/code-mode/sandbox';
import { codeSandboxForFile } from '../helpers/code-sandbox';

checkLeaksAtEndOfFile();

const sandbox = codeSandboxForFile();

/** A broker that answers every call with {sum: a + b} — no server needed to probe the sandbox itself. */
const adder: ToolBroker = {
  callTool: async (_server, _tool, args) => ({ content: [], structuredContent: { sum: Number(args.a) + Number(args.b) } }),
};

function run(code: string, limits: Partial<CodeLimits> = {}, broker: ToolBroker = adder): Promise<CodeRunOutcome> {
  return sandbox().run({ code, api: { math: ['add'] }, limits: { ...DEFAULT_CODE_LIMITS, ...limits }, broker });
}

describe('nothing of Node or the web exists inside', () => {
  const forbidden = [
    'require', 'process', 'fetch', 'XMLHttpRequest', 'WebSocket', 'Buffer', 'setInterval', 'setImmediate', 'queueMicrotask',
    'module', 'exports', '__dirname', '__filename', 'global', 'importScripts', 'navigator', 'Deno', 'Bun', 'os', 'std',
    'Worker', 'SharedWorker', 'postMessage', 'structuredClone', 'EventSource', 'Request', 'Response', 'TextEncoder', 'crypto',
  ];

  it.each(forbidden)('%s is undefined', async (name) => {
    expect(await run(`return typeof ${name};`)).toMatchObject({ ok: true, result: 'undefined' });
  });

  it.each(forbidden)('%s is undefined through the Function constructor and eval', async (name) => {
    const code = `return [
      Function('return typeof ${name}')(),
      (function () {}).constructor('return typeof ${name}')(),
      globalThis.constructor.constructor('return typeof this.${name}')(),
      await tools.math.add.constructor('return typeof ${name}')(),
      eval('typeof ${name}'),
      (0, eval)('typeof ${name}'),
    ];`;
    expect(await run(code)).toMatchObject({ ok: true, result: Array(6).fill('undefined') });
  });

  it('the global object holds the ECMAScript built-ins and the script API only', async () => {
    const outcome = await run('return Object.getOwnPropertyNames(globalThis);');
    const names = outcome.result as string[];
    expect(names).toEqual(expect.arrayContaining(['tools', 'console', 'setTimeout', 'clearTimeout', 'JSON', 'Promise']));
    const builtins = new Set(Object.getOwnPropertyNames(globalThis));
    const extra = names.filter((n) => !builtins.has(n) && !['tools', 'console', 'setTimeout', 'clearTimeout', 'InternalError'].includes(n));
    expect(extra).toEqual([]);
  });

  it('import() of a module is refused, and a static import does not parse', async () => {
    const dynamic = await run(`try { await import('node:fs'); return 'loaded'; } catch (e) { return String(e); }`);
    expect(dynamic.result).toMatch(/could not load module/);
    const fromFunction = await run(`return await Function('return import("fs")')().then(() => 'loaded', (e) => String(e));`);
    expect(fromFunction.result).toMatch(/could not load module/);
    const fixedImport = await run(`import fs from 'fs'; return fs;`);
    expect(fixedImport).toMatchObject({ ok: false, error: { code: 'SCRIPT_ERROR' } });
    expect(fixedImport.error?.message).toMatch(/SyntaxError/);
  });

  it('the host functions behind tools are out of reach', async () => {
    const outcome = await run(`
      const fn = tools.math.add;
      let caller;
      try { caller = fn.caller; } catch (e) { caller = 'refused'; }
      return { source: fn.toString().includes('hostCall'), globals: ['hostCall', 'hostLog', 'hostSleep', 'hostDone', 'call', 'log', 'sleep', 'done'].filter((n) => n in globalThis), caller: String(caller) };`);
    expect(outcome.result).toEqual({ source: true, globals: [], caller: 'refused' });
  });

  it('setTimeout does not run text as code', async () => {
    const outcome = await run(`setTimeout('globalThis.ran = 1', 0); return 1;`);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'SCRIPT_ERROR' } });
    expect(outcome.error?.message).toMatch(/setTimeout takes a function/);
  });
});

describe('limits end a script, and say which', () => {
  it('an endless loop ends at the time limit while the host keeps running', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 20);
    const started = Date.now();
    const outcome = await run('while (true) {}', { timeoutMs: 500 });
    clearInterval(ticker);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TIME_LIMIT' } });
    expect(outcome.error?.message).toMatch(/time limit \(500 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The host's own event loop ran the whole time the script spun.
    expect(ticks).toBeGreaterThan(10);
  });

  it('an endless loop that catches errors still ends', async () => {
    const outcome = await run('for (;;) { try { while (true) {} } catch (e) {} }', { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TIME_LIMIT' } });
  });

  it('a script waiting on its own timer is on the clock', async () => {
    const outcome = await run('await new Promise((resolve) => setTimeout(resolve, 60000)); return 1;', { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TIME_LIMIT' } });
  });

  it('waiting for a tool call is not on the clock', async () => {
    // The wait is twice the limit; the limit leaves room for a busy machine's slow start.
    const slow: ToolBroker = { callTool: async () => new Promise((resolve) => setTimeout(() => resolve({ content: [{ type: 'text', text: 'late' }] }), 3_000)) };
    const outcome = await run('return await tools.math.add({});', { timeoutMs: 1_500 }, slow);
    expect(outcome).toMatchObject({ ok: true, result: 'late' });
  });

  it('a memory bomb ends at the memory limit', async () => {
    const outcome = await run('const keep = []; for (;;) keep.push({ n: keep.length, list: [1, 2, 3] });', { memoryBytes: 16 * 1024 * 1024, timeoutMs: 20_000 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'MEMORY_LIMIT' } });
    expect(outcome.error?.message).toMatch(/memory than its limit \(16 MB\)/);
  });

  it('one huge allocation is refused at the memory limit', async () => {
    expect(await run('return new ArrayBuffer(1e9).byteLength;')).toMatchObject({ ok: false, error: { code: 'MEMORY_LIMIT' } });
  });

  it('endless recursion is the script\'s error, not a crash, and the sandbox runs the next script', async () => {
    const outcome = await run('function down() { return down() + 1; } return down();');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'SCRIPT_ERROR' } });
    expect(outcome.error?.message).toMatch(/stack overflow/);
    const deep = await run('return JSON.parse("[".repeat(100000));');
    expect(deep.error?.message).toMatch(/stack overflow/);
    expect(await run('return 1 + 1;')).toMatchObject({ ok: true, result: 2 });
  });

  it('printing without end ends at the output limit', async () => {
    const outcome = await run('for (;;) console.log("x".repeat(1000));', { maxOutputBytes: 50_000 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'OUTPUT_LIMIT' } });
    expect(outcome.logs.length).toBeLessThanOrEqual(50);
  });

  it('a result larger than the output limit ends at the output limit', async () => {
    expect(await run('return "x".repeat(200000);', { maxOutputBytes: 100_000 })).toMatchObject({ ok: false, error: { code: 'OUTPUT_LIMIT' } });
  });

  it('the call after the last allowed one ends the script at the call limit', async () => {
    const outcome = await run('let n = 0; for (;;) { await tools.math.add({ a: n, b: 1 }); n += 1; }', { maxToolCalls: 5 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'CALL_LIMIT' } });
    expect(outcome.calls).toHaveLength(5);
  });

  it('a worker that stops answering is terminated after its time limit', async () => {
    const hung = new CodeSandbox({ workerUrl: new URL('../fixtures/code-mode/hung-worker.mjs', import.meta.url) });
    try {
      const started = Date.now();
      const outcome = await hung.run({ code: 'return 1', api: {}, limits: { ...DEFAULT_CODE_LIMITS, timeoutMs: 200 }, broker: adder });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'TIME_LIMIT' } });
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      await hung.dispose();
    }
  });

  it('a worker that cannot start is an INTERNAL outcome, not a crash', async () => {
    const missing = new CodeSandbox({ workerUrl: new URL(`file://${fileURLToPath(new URL('.', import.meta.url))}no-such-worker.mjs`) });
    try {
      expect(await missing.run({ code: 'return 1', api: {}, limits: DEFAULT_CODE_LIMITS, broker: adder })).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    } finally {
      await missing.dispose();
    }
  });

  it('a worker that exits while starting is an INTERNAL outcome, and is disposed all the same', async () => {
    // Its exit is seen before the run ends; the leak check at the end of this file fails if the
    // worker was then taken for already disposed.
    const exiting = new CodeSandbox({ workerUrl: new URL('../fixtures/code-mode/exiting-worker.mjs', import.meta.url) });
    try {
      expect(await exiting.run({ code: 'return 1', api: {}, limits: DEFAULT_CODE_LIMITS, broker: adder })).toMatchObject({
        ok: false,
        error: { code: 'INTERNAL', message: 'The code sandbox stopped while starting (exit 3).' },
      });
    } finally {
      await exiting.dispose();
    }
  });
});

describe('Stop', () => {
  it('ends a spinning script and cancels the call in flight', async () => {
    let cancelled = false;
    const waiting: ToolBroker = {
      callTool: (_s, _t, _a, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            cancelled = true;
            reject(new Error('aborted'));
          });
        }),
    };
    const controller = new AbortController();
    const running = sandbox().run({
      code: 'tools.math.add({}); while (true) {}',
      api: { math: ['add'] },
      limits: DEFAULT_CODE_LIMITS,
      broker: waiting,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'call' && event.call.status === 'running') setTimeout(() => controller.abort(), 100);
      },
    });
    const outcome = await running;
    expect(outcome).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(cancelled).toBe(true);
    expect(outcome.calls[0]).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
  });
});
