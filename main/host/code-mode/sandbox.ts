import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { HarborError } from '../errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../lifecycle';
import type { SandboxWorkerData, ToHost } from './protocol';
import { ScriptRun, type CodeRunOutcome, type CodeRunRequest } from './script-run';
import { VM_PRELUDE } from './vm-prelude';

/**
 * Where the worker entry is: built, out/main/sandbox-worker.js beside the bundle (or one level up
 * from a shared chunk; the benchmarks' build names it .mjs); unbuilt (tests), sandbox-worker.ts
 * beside this file, which Node runs with its types stripped.
 */
export function defaultWorkerUrl(): URL {
  const candidates = ['./sandbox-worker.js', '../sandbox-worker.js', './sandbox-worker.mjs', './sandbox-worker.ts'];
  for (const candidate of candidates) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(url)) return url;
  }
  return new URL(candidates[0]!, import.meta.url);
}

/** One worker thread with its QuickJS engine loaded; runs one script at a time. */
class SandboxWorker implements Disposable {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private run: ScriptRun | undefined;
  private exited = false;
  private disposed = false;

  constructor(url: URL) {
    const workerData: SandboxWorkerData = { prelude: VM_PRELUDE };
    // node:worker_threads when code runs, not at every start of every command (#32).
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    this.worker = new Worker(url, {
      workerData,
      // Nothing of the host's environment (API keys, tokens) exists even on the worker's side.
      env: {},
      // Deep recursion must meet QuickJS's own stack check, not this thread's.
      resourceLimits: { stackSizeMb: 16, maxOldGenerationSizeMb: 256 },
      // The engine's own diagnostics (an abort message) are not the person's output.
      stdout: true,
      stderr: true,
    });
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: ToHost) => {
        if (message.type === 'ready') resolve();
        else this.run?.receive(message);
      });
      this.worker.once('error', (error) => {
        reject(new HarborError('INTERNAL', `The code sandbox could not run: ${error.message}`));
        this.run?.workerLost(error.message);
      });
      this.worker.once('exit', (code) => {
        this.exited = true;
        reject(new HarborError('INTERNAL', `The code sandbox stopped while starting (exit ${code}).`));
        this.run?.workerLost(`exit ${code}`);
      });
    });
    // A worker that fails before anyone waits for it must not be an unhandled rejection.
    this.ready.catch(() => undefined);
    trackDisposable(this);
  }

  get usable(): boolean {
    return !this.exited;
  }

  async execute(request: CodeRunRequest): Promise<{ outcome: CodeRunOutcome; reusable: boolean }> {
    const run = new ScriptRun(
      {
        send: (message) => this.worker.postMessage(message),
        terminate: () => void this.dispose(),
      },
      request,
    );
    this.run = run;
    try {
      run.start();
      const outcome = await run.done;
      return { outcome, reusable: !run.needsFreshWorker && !this.exited };
    } finally {
      this.run = undefined;
    }
  }

  /** A worker waiting for work does not keep the process alive. */
  hold(held: boolean): void {
    if (held) this.worker.ref();
    else this.worker.unref();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    // A worker that exited on its own (it could not start, it crashed) has nothing left to end.
    if (this.exited) return;
    this.exited = true;
    await this.worker.terminate();
  }
}

export interface CodeSandboxOptions {
  /** The worker entry (default: defaultWorkerUrl()). */
  readonly workerUrl?: URL;
}

/**
 * Runs scripts in QuickJS (WebAssembly) in worker threads, so that no script can block the host
 * or reach anything of it. Keeps one worker warm between scripts (each script still gets a fresh
 * engine runtime of its own); runs at the same time get a worker each. A worker that overran, was
 * cancelled or crashed is terminated and replaced. `dispose()` terminates every worker.
 */
export class CodeSandbox implements Disposable {
  private idle: SandboxWorker | undefined;
  private readonly busy = new Set<SandboxWorker>();
  private readonly workerUrl: URL;
  private disposed = false;

  constructor(options: CodeSandboxOptions = {}) {
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
    trackDisposable(this);
  }

  /** Starts a worker ahead of the first script (loading the engine takes a moment). */
  prewarm(): void {
    if (this.disposed || this.idle) return;
    this.idle = new SandboxWorker(this.workerUrl);
    this.idle.hold(false);
  }

  /** Runs one script to its end; never rejects (a sandbox that cannot start is an INTERNAL outcome). */
  async run(request: CodeRunRequest): Promise<CodeRunOutcome> {
    if (this.disposed) return failure('CANCELLED', 'Harbor is shutting down.');
    const worker = this.idle?.usable ? this.idle : new SandboxWorker(this.workerUrl);
    this.idle = undefined;
    this.busy.add(worker);
    worker.hold(true);
    let reusable = false;
    try {
      await worker.ready;
      const ran = await worker.execute(request);
      reusable = ran.reusable;
      return ran.outcome;
    } catch (error) {
      return failure('INTERNAL', error instanceof Error ? error.message : String(error));
    } finally {
      this.busy.delete(worker);
      if (reusable && !this.disposed && !this.idle) {
        this.idle = worker;
        worker.hold(false);
      } else {
        await worker.dispose();
      }
    }
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    markAsDisposed(this);
    const workers = [...this.busy, ...(this.idle ? [this.idle] : [])];
    this.idle = undefined;
    await Promise.all(workers.map((w) => w.dispose()));
  }
}

function failure(code: 'CANCELLED' | 'INTERNAL', message: string): CodeRunOutcome {
  return { ok: false, error: { code, message }, logs: [], calls: [], callCount: 0, ms: 0 };
}
