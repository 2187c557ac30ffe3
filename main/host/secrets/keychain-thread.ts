import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { HarborError } from '../errors';
import { keychainFailure, keychainStillBlocked, keychainTimeout } from './keychain-errors';

export type KeychainRequest =
  | { readonly op: 'get'; readonly account: string }
  | { readonly op: 'set'; readonly account: string; readonly value: string }
  | { readonly op: 'delete'; readonly account: string }
  | { readonly op: 'list' };

type Reply = { readonly id: number; readonly ok: true; readonly value?: unknown } | { readonly id: number; readonly ok: false; readonly message: string };

/**
 * The code the keychain thread runs (CommonJS, eval'd: no separate file to bundle). Every call is
 * the library's synchronous `Entry` API, ALWAYS pinned to the Secret Service on Linux: the default
 * silently falls back to a kernel keyring that forgets everything at logout. `list` sends back
 * account names only; values never cross for it.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let keyring, loadError;
try { keyring = require(workerData.modulePath); } catch (error) { loadError = String(error && error.message || error); }
const options = { linux: { store: 'secret-service' } };
parentPort.on('message', (m) => {
  let reply;
  try {
    if (!keyring) throw new Error('the keychain library could not be loaded: ' + loadError);
    let value;
    if (m.op === 'list') {
      value = keyring.findCredentials(workerData.service).map((c) => c.account);
    } else {
      const entry = new keyring.Entry(workerData.service, m.account, options);
      if (m.op === 'get') value = entry.getPassword();
      else if (m.op === 'set') entry.setPassword(m.value);
      else if (m.op === 'delete') value = entry.deletePassword();
    }
    reply = { id: m.id, ok: true, value: value === null ? undefined : value };
  } catch (error) {
    reply = { id: m.id, ok: false, message: String(error && error.message || error) };
  }
  parentPort.postMessage(reply);
});
`;

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: HarborError) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** At most this many threads (per store) may hang on the keychain before new calls fail at once. */
const MAX_STUCK_THREADS = 2;

let stuckInProcess = 0;

/**
 * Keychain threads of this process still stuck in a call that timed out. Node waits for every
 * thread when the process ends by itself, so while this is above 0 a front door that is done must
 * end the process explicitly (CLI: `process.exit` after flushing its output; Electron: `app.exit`).
 */
export function stuckKeychainThreads(): number {
  return stuckInProcess;
}

/**
 * Runs keychain calls on a worker thread so that a call can be abandoned. The keyring library's
 * calls block in native code: a locked keyring can wait on a GUI unlock prompt forever, and its
 * AbortSignal does not cancel that; even `new Entry()` talks to D-Bus synchronously. On the main
 * thread that would freeze the app (and an async call would keep the CLI from ever exiting). Here
 * each call races a timer; on timeout the thread is abandoned: unref'd, never terminated (a
 * terminate waits for the native call to return), and replaced by a fresh one for the next call.
 * An abandoned thread may linger until its keychain call returns (e.g. the person answers the
 * prompt). It does not keep the event loop alive (the thread is unref'd, idle or not), but Node
 * joins threads when a process ends by itself: see `stuckKeychainThreads()`.
 */
export class KeychainThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stuck = 0;
  private disposed = false;

  constructor(
    private readonly service: string,
    private readonly timeoutMs: number,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  request(request: KeychainRequest): Promise<unknown> {
    if (this.disposed) return Promise.reject(keychainFailure('Harbor is shutting down', this.platform));
    if (this.stuck >= MAX_STUCK_THREADS) return Promise.reject(keychainStillBlocked(this.platform));
    let worker: Worker;
    try {
      worker = this.ensureWorker();
    } catch (error) {
      return Promise.reject(keychainFailure(`the keychain thread could not start: ${(error as Error).message}`, this.platform));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // This timer is what keeps the process alive while a call is out; the thread never does.
      const timer = setTimeout(() => this.abandon(worker, keychainTimeout(this.timeoutMs, this.platform)), this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, ...request });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    // No `env` option: the native library reads the process environment (getenv), not the
    // thread's copy, so which D-Bus session it uses is the process's DBUS_SESSION_BUS_ADDRESS.
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { modulePath, service: this.service } });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      if (worker !== this.worker) return; // an abandoned thread answering late
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      clearTimeout(pending.timer);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(keychainFailure(reply.message, this.platform));
    });
    worker.on('error', (error) => {
      if (worker === this.worker) this.abandon(worker, keychainFailure(`the keychain thread failed: ${error.message}`, this.platform), false);
    });
    worker.on('exit', () => {
      if (worker === this.worker) this.abandon(worker, keychainFailure('the keychain thread stopped unexpectedly', this.platform), false);
    });
    this.worker = worker;
    return worker;
  }

  /**
   * Fails every call queued on this thread (they sit behind the stuck one) and lets the thread go.
   * A stuck thread is counted until its call finally returns, then terminated.
   */
  private abandon(worker: Worker, error: HarborError, stuck = true): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
    worker.removeAllListeners('message');
    if (!stuck) return;
    this.stuck++;
    stuckInProcess++;
    worker.once('message', () => {
      this.stuck--;
      stuckInProcess--;
      void worker.terminate().catch(() => undefined);
    });
  }

  /** Fails calls still out and stops an idle thread; a stuck one is left to finish on its own. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const worker = this.worker;
    if (!worker) return;
    const busy = this.pending.size > 0;
    this.abandon(worker, keychainFailure('Harbor is shutting down', this.platform), busy);
    if (!busy) await worker.terminate().catch(() => undefined);
  }
}
