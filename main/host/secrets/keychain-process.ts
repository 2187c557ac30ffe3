import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import type { HarborError } from '../errors';
import { keychainFailure, keychainTimeout } from './keychain-failures';

export type KeychainRequest =
  | { readonly op: 'get'; readonly account: string }
  | { readonly op: 'set'; readonly account: string; readonly value: string }
  | { readonly op: 'delete'; readonly account: string }
  | { readonly op: 'list' };

type Reply = { readonly id: number; readonly ok: true; readonly value?: unknown } | { readonly id: number; readonly ok: false; readonly message: string };

/**
 * What the helper process runs (`node -e`): one JSON request per stdin line, one JSON reply per
 * stdout line, each a synchronous `Entry` call of @napi-rs/keyring, ALWAYS pinned to the Secret
 * Service on Linux: the default silently falls back to a kernel keyring that forgets everything at
 * logout. `list` replies with account names only; values never cross for it.
 */
const HELPER_SOURCE = `
const keyring = require(process.env.HARBOR_KEYRING_MODULE);
const service = process.env.HARBOR_KEYRING_SERVICE;
const options = { linux: { store: 'secret-service' } };
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let m, reply;
  try {
    m = JSON.parse(line);
    let value;
    if (m.op === 'list') {
      value = keyring.findCredentials(service).map((c) => c.account);
    } else {
      const entry = new keyring.Entry(service, m.account, options);
      if (m.op === 'get') value = entry.getPassword();
      else if (m.op === 'set') entry.setPassword(m.value);
      else if (m.op === 'delete') value = entry.deletePassword();
    }
    reply = { id: m.id, ok: true, value: value === null ? undefined : value };
  } catch (error) {
    reply = { id: m && m.id, ok: false, message: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(reply) + '\\n');
});
lines.on('close', () => process.exit(0));
`;

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: HarborError) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

export interface KeychainProcessOptions {
  readonly service: string;
  readonly timeoutMs: number;
  readonly platform: NodeJS.Platform;
  /** The helper's environment (which D-Bus session it talks to). Default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Runs keychain calls in a helper process so that a call can be abandoned for real. The keyring
 * library blocks in native code: a locked keyring can wait on a GUI unlock prompt forever, its
 * AbortSignal does not cancel that, and even `new Entry()` talks to D-Bus synchronously. On the main
 * thread that would freeze the app; on a worker thread it would still block the process's exit
 * (Node joins its threads, even in `process.exit`). A process can be killed: each call races a
 * timer, and on timeout the helper is SIGKILLed (calls queued behind the stuck one fail too) and the
 * next call starts a fresh one. The helper is started on first use, kept for later calls, and
 * unref'd: an idle helper never keeps Harbor alive; a pending call's timer does, until it settles.
 */
export class KeychainProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private disposed = false;

  constructor(private readonly options: KeychainProcessOptions) {}

  request(request: KeychainRequest): Promise<unknown> {
    const { platform, timeoutMs } = this.options;
    if (this.disposed) return Promise.reject(keychainFailure('Harbor is shutting down', platform));
    let child: ChildProcessWithoutNullStreams;
    try {
      child = this.ensureChild();
    } catch (error) {
      return Promise.reject(keychainFailure(`the keychain helper could not start: ${(error as Error).message}`, platform));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.kill(child, keychainTimeout(timeoutMs, platform)), timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  private ensureChild(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const modulePath = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      // ELECTRON_RUN_AS_NODE: in the app, execPath is Electron; this makes it run the helper as plain Node.
      env: { ...(this.options.env ?? process.env), ELECTRON_RUN_AS_NODE: '1', HARBOR_KEYRING_MODULE: modulePath, HARBOR_KEYRING_SERVICE: this.options.service },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    this.stderrTail = '';
    // Never what keeps Harbor alive: a pending call's timer does that while it waits.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
    child.stdin.on('error', () => undefined); // EPIPE after a crash: reported through 'exit'
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    // node:readline when the keychain is asked, not at every start of every command (#32).
    process.getBuiltinModule('node:readline').createInterface({ input: child.stdout }).on('line', (line) => this.onReply(child, line));
    child.on('error', (error) => this.kill(child, keychainFailure(`the keychain helper could not start: ${error.message}`, this.options.platform)));
    child.on('exit', (code, signal) => {
      if (child !== this.child) return;
      const why = this.stderrTail.trim().split('\n').slice(-3).join(' ') || `it exited (${signal ?? `code ${code}`})`;
      this.kill(child, keychainFailure(`the keychain helper stopped: ${why}`, this.options.platform));
    });
    return child;
  }

  private onReply(child: ChildProcessWithoutNullStreams, line: string): void {
    if (child !== this.child) return;
    let reply: Reply;
    try {
      reply = JSON.parse(line) as Reply;
    } catch {
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(keychainFailure(reply.message, this.options.platform));
  }

  /** Ends this helper (SIGKILL: it may be stuck in native code) and fails every call it holds. */
  private kill(child: ChildProcessWithoutNullStreams, error: HarborError): void {
    if (child !== this.child) return;
    this.child = undefined;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.pending.delete(id);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.child) this.kill(this.child, keychainFailure('Harbor is shutting down', this.options.platform));
  }
}
