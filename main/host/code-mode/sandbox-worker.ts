/**
 * The sandbox's worker thread: runs one script at a time in QuickJS compiled to WebAssembly. The
 * script's world has only the ECMAScript built-ins plus what the prelude installs (`tools`,
 * `console`, a bounded `setTimeout`): no require, import(), process, fetch, Buffer, files or
 * network — QuickJS has none of Node or the web, and this file adds none. Tool calls leave as
 * messages; the host side brokers each one through the consent gate and answers with data.
 *
 * Runs in a worker so that a script that never yields blocks this thread, never the host; the
 * host terminates the worker if it stops answering. Every host-side handle is disposed when a
 * run ends; if the engine could be in a bad state (a run cut short), the worker asks to be
 * replaced instead of being reused.
 *
 * Entry file of its own (electron-vite builds it to out/main/sandbox-worker.js; tests run this
 * .ts unbuilt): it imports packages and types only, and gets the prelude (vm-prelude.ts) from
 * the host as workerData.
 */
import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { LimitName } from './limits';
import type { CallAnswer, LogLevel, RunRequest, SandboxWorkerData, ToHost, ToWorker, WorkerOutcome } from './protocol';

/** QuickJS's own stack check must fire before the thread's (the host gives this worker 16 MB). */
/** How far past the time limit a script's timer may be set (the limit always ends the script first). */
const TIMER_MARGIN_MS = 5_000;
const MAX_STACK_BYTES = 512 * 1024;
/** Timers one script may have waiting at once. */
const MAX_TIMERS = 1000;
/** How often an idle script's clock is checked (a running one is checked by the interrupt handler). */
const CLOCK_CHECK_MS = 50;

const port = parentPort;
if (!port) throw new Error('sandbox-worker.ts runs as a worker thread');
const { prelude } = workerData as SandboxWorkerData;
const post = (message: ToHost) => port.postMessage(message);
const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The script's time: it runs while JavaScript executes, and while the script waits on nothing
 * but its own timers; waiting for a tool call (a server, a consent dialog) does not count.
 */
class ScriptClock {
  private spent = 0;
  private since: number | undefined = performance.now();
  private executing = 0;
  private waitingCalls = 0;

  private change(apply: () => void): void {
    const before = this.counting();
    apply();
    const after = this.counting();
    if (before && !after) {
      this.spent += performance.now() - (this.since ?? performance.now());
      this.since = undefined;
    } else if (!before && after) {
      this.since = performance.now();
    }
  }

  private counting(): boolean {
    return this.executing > 0 || this.waitingCalls === 0;
  }

  enter = () => this.change(() => (this.executing += 1));
  exit = () => this.change(() => (this.executing -= 1));
  callStarted = () => this.change(() => (this.waitingCalls += 1));
  callEnded = () => this.change(() => (this.waitingCalls -= 1));

  elapsed(): number {
    return this.spent + (this.since === undefined ? 0 : performance.now() - this.since);
  }
}

/** How the script ended, as reported by the prelude's settle(). */
interface Settled {
  readonly ok: boolean;
  readonly json?: string;
  readonly name?: string;
  readonly message?: string;
  readonly line?: number;
  readonly token?: string;
}

class ScriptRun {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly clock = new ScriptClock();
  private readonly calls = new Map<number, QuickJSDeferredPromise>();
  private readonly timers = new Map<NodeJS.Timeout, QuickJSDeferredPromise>();
  private readonly clockCheck: NodeJS.Timeout;
  private nextCallId = 0;
  private callsMade = 0;
  private outputBytes = 0;
  private limitHit: LimitName | undefined;
  private settled: Settled | undefined;
  private broken = false;
  private finished = false;

  // Fields, not parameter properties: Node runs this file unbuilt, and strips only erasable syntax.
  private readonly request: RunRequest;
  private readonly onFinished: () => void;

  constructor(engine: QuickJSWASMModule, request: RunRequest, onFinished: () => void) {
    this.request = request;
    this.onFinished = onFinished;
    this.runtime = engine.newRuntime();
    this.runtime.setMemoryLimit(request.limits.memoryBytes);
    this.runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.runtime.setInterruptHandler(() => this.shouldInterrupt());
    this.vm = this.runtime.newContext();
    this.clockCheck = setInterval(() => {
      if (this.clock.elapsed() > this.request.limits.timeoutMs) this.limitHit ??= 'time';
      this.finishIfDone();
    }, CLOCK_CHECK_MS);
  }

  start(): void {
    const vm = this.vm;
    this.clock.enter();
    try {
      const settle = this.install();
      const main = vm.evalCode(`(async () => {${this.request.code}\n})()`, 'script.js');
      if (main.error) {
        this.settled = this.describeThrown(main.error);
        main.error.dispose();
      } else {
        const started = vm.callFunction(settle, vm.undefined, main.value);
        main.value.dispose();
        if (started.error) this.broken = true;
        (started.error ?? started.value).dispose();
      }
      settle.dispose();
    } catch {
      // The engine itself failed (out of memory while setting up, a wasm trap): not the script's doing.
      this.broken = true;
    } finally {
      this.clock.exit();
    }
    this.pump();
  }

  /** Installs the prelude's globals; returns its settle(promise). The host functions stay out of reach. */
  private install(): QuickJSHandle {
    const vm = this.vm;
    const install = vm.unwrapResult(vm.evalCode(prelude, 'harbor-prelude.js'));
    const handles = [
      vm.newFunction('call', (server, tool, args) => this.call(vm.getString(server), vm.getString(tool), vm.getString(args))),
      vm.newFunction('log', (level, text) => this.log(vm.getString(level) as LogLevel, vm.getString(text))),
      vm.newFunction('sleep', (ms) => this.sleep(vm.getNumber(ms))),
      vm.newFunction('done', (ok, json, name, message, line, token) => {
        this.settled = this.readSettled(ok, json, name, message, line, token);
      }),
      vm.newString(JSON.stringify(this.request.api)),
    ];
    try {
      return vm.unwrapResult(vm.callFunction(install, vm.undefined, ...handles));
    } finally {
      for (const handle of handles) handle.dispose();
      install.dispose();
    }
  }

  private call(server: string, tool: string, argsJson: string): QuickJSHandle {
    this.callsMade += 1;
    if (this.callsMade > this.request.limits.maxToolCalls) {
      this.limitHit ??= 'toolCalls';
      return this.vm.undefined;
    }
    const callId = (this.nextCallId += 1);
    const deferred = this.vm.newPromise();
    this.calls.set(callId, deferred);
    this.clock.callStarted();
    post({ type: 'call', runId: this.request.runId, callId, server, tool, argsJson });
    return deferred.handle;
  }

  private log(level: LogLevel, text: string): void {
    this.outputBytes += utf8Bytes(text) + 1;
    if (this.outputBytes > this.request.limits.maxOutputBytes) {
      this.limitHit ??= 'output';
      return;
    }
    post({ type: 'log', runId: this.request.runId, level, text });
  }

  private sleep(ms: number): QuickJSHandle {
    if (this.timers.size >= MAX_TIMERS) throw new RangeError(`A script may have at most ${MAX_TIMERS} timers waiting at once.`);
    // No timer needs to outlast the time limit: the limit (kept by the host, on another thread) ends
    // the script first. The margin keeps it that way on a busy machine; a timer capped at exactly
    // the limit would race it and could let a script sleep past its limit.
    const delay = Math.min(Math.max(0, Number.isFinite(ms) ? ms : 0), this.request.limits.timeoutMs + TIMER_MARGIN_MS);
    const deferred = this.vm.newPromise();
    const timer = setTimeout(() => {
      if (!this.timers.delete(timer)) return;
      deferred.resolve();
      deferred.dispose();
      this.pump();
    }, delay);
    this.timers.set(timer, deferred);
    return deferred.handle;
  }

  /** A brokered call's answer: the script's awaiting promise settles, and the script runs on. */
  answer(callId: number, answer: CallAnswer): void {
    const deferred = this.calls.get(callId);
    if (!deferred || this.finished) return;
    this.calls.delete(callId);
    this.clock.callEnded();
    const text = answer.ok
      ? `{"ok":true,"value":${answer.valueJson}}`
      : JSON.stringify({ ok: false, message: answer.message, code: answer.code, token: answer.token });
    try {
      const value = this.vm.newString(text);
      deferred.resolve(value);
      value.dispose();
    } catch {
      // Too large for the script's memory.
      this.limitHit ??= 'memory';
    }
    deferred.dispose();
    this.pump();
  }

  /** Runs the script's pending promise jobs, then ends the run if it is over. */
  private pump(): void {
    if (this.finished) return;
    this.clock.enter();
    try {
      const result = this.runtime.executePendingJobs();
      // A job's exception is the script's own unhandled rejection: its main promise decides.
      if (result.error) result.error.dispose();
    } catch {
      this.broken = true;
    } finally {
      this.clock.exit();
    }
    this.finishIfDone();
  }

  private shouldInterrupt(): boolean {
    if (this.limitHit || this.finished) return true;
    if (this.clock.elapsed() > this.request.limits.timeoutMs) this.limitHit = 'time';
    return this.limitHit !== undefined;
  }

  private finishIfDone(): void {
    if (this.finished) return;
    if (this.broken) return this.finish({ ok: false, kind: 'threw', name: 'InternalError', message: 'The sandbox failed while running the script.' });
    if (this.limitHit) return this.finish({ ok: false, kind: 'limit', limit: this.limitHit });
    const settled = this.settled;
    if (!settled) return;
    if (settled.ok) {
      const bytes = this.outputBytes + (settled.json ? utf8Bytes(settled.json) : 0);
      if (bytes > this.request.limits.maxOutputBytes) return this.finish({ ok: false, kind: 'limit', limit: 'output' });
      return this.finish({ ok: true, ...(settled.json !== undefined ? { resultJson: settled.json } : {}) });
    }
    if (settled.name === 'InternalError' && settled.message === 'out of memory') return this.finish({ ok: false, kind: 'limit', limit: 'memory' });
    this.finish({
      ok: false,
      kind: 'threw',
      name: settled.name ?? 'Error',
      message: settled.message ?? '',
      ...(settled.line !== undefined ? { line: settled.line } : {}),
      ...(typeof settled.token === 'string' ? { callToken: settled.token } : {}),
    });
  }

  /** Ends the run now (also a cancel from the host): releases every handle, then reports. */
  finish(outcome: WorkerOutcome): void {
    if (this.finished) return;
    this.finished = true;
    clearInterval(this.clockCheck);
    let recycle = this.broken || this.limitHit !== undefined || !outcome.ok;
    try {
      for (const [timer, deferred] of this.timers) {
        clearTimeout(timer);
        deferred.dispose();
      }
      for (const deferred of this.calls.values()) deferred.dispose();
      this.timers.clear();
      this.calls.clear();
      this.vm.dispose();
      this.runtime.dispose();
    } catch {
      recycle = true;
    }
    post({ type: 'done', runId: this.request.runId, outcome, recycle });
    this.onFinished();
  }

  /** settle()'s report, in plain values only: anything else in a place is as if it were absent. */
  private readSettled(...[ok, json, name, message, line, token]: (QuickJSHandle | undefined)[]): Settled {
    const vm = this.vm;
    const text = (handle: QuickJSHandle | undefined) => (handle && vm.typeof(handle) === 'string' ? vm.getString(handle) : undefined);
    const lineNumber = line && vm.typeof(line) === 'number' ? vm.getNumber(line) : undefined;
    return {
      ok: ok !== undefined && vm.sameValue(ok, vm.true),
      ...(text(json) !== undefined ? { json: text(json) } : {}),
      ...(text(name) !== undefined ? { name: text(name) } : {}),
      ...(text(message) !== undefined ? { message: text(message) } : {}),
      ...(lineNumber !== undefined ? { line: lineNumber } : {}),
      ...(text(token) !== undefined ? { token: text(token) } : {}),
    };
  }

  private describeThrown(handle: QuickJSHandle): Settled {
    try {
      const error = this.vm.dump(handle) as { name?: unknown; message?: unknown; stack?: unknown };
      const line = typeof error.stack === 'string' ? /script\.js:(\d+)/.exec(error.stack)?.[1] : undefined;
      return { ok: false, name: String(error.name ?? 'Error'), message: String(error.message ?? error), ...(line ? { line: Number(line) } : {}) };
    } catch {
      return { ok: false, name: 'Error', message: 'The script could not be run.' };
    }
  }
}

const engine = newQuickJSWASMModuleFromVariant(variant);
let current: ScriptRun | undefined;

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'run':
      void engine.then((loaded) => {
        current = new ScriptRun(loaded, message.request, () => (current = undefined));
        current.start();
      });
      break;
    case 'answer':
      current?.answer(message.callId, message.answer);
      break;
    case 'cancel':
      current?.finish({ ok: false, kind: 'cancelled' });
      break;
  }
});

void engine.then(() => post({ type: 'ready' }));
