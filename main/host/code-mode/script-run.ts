import { randomBytes, randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CodeCall, CodeLog, CodeRunError } from '../../../preload/contract';
import { HarborError } from '../errors';
import { RingLog } from '../ring-log';
import { jsonSizeAtMost, previewText } from '../text-preview';
import { scriptValueOf } from './call-values';
import { LIMIT_CODES, limitMessage, type CodeLimits } from './limits';
import type { ApiShape, CallAnswer, ToHost, ToWorker, WorkerOutcome } from './protocol';

/** How a script's tool call reaches a server: the Host's call door (consent gate, redaction exit). */
export interface ToolBroker {
  callTool(server: string, tool: string, args: Record<string, unknown>, options: { readonly signal: AbortSignal }): Promise<CallToolResult>;
}

/** What a running script reports as it goes: each call as it starts and ends, each line it prints. */
export type CodeRunEvent = { readonly type: 'call'; readonly call: CodeCall } | { readonly type: 'log'; readonly log: CodeLog };

export interface CodeRunRequest {
  readonly code: string;
  /** The servers and tools the script's `tools` object offers. */
  readonly api: ApiShape;
  readonly limits: CodeLimits;
  readonly broker: ToolBroker;
  /** Stop: ends the script and cancels its calls in flight. */
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: CodeRunEvent) => void;
}

export interface CodeRunOutcome {
  readonly ok: boolean;
  /** What the script returned (JSON), when it ended well. */
  readonly result?: unknown;
  readonly error?: CodeRunError;
  readonly logs: readonly CodeLog[];
  /** The newest calls (at most CALL_WINDOW), oldest first. */
  readonly calls: readonly CodeCall[];
  /** Every call the script made, the ones no longer in `calls` included. */
  readonly callCount: number;
  readonly ms: number;
}

/** The worker as a run talks to it. */
export interface WorkerChannel {
  send(message: ToWorker): void;
  /** Ends the worker at once: it stopped answering, or it may be in a bad state. */
  terminate(): void;
}

/** How far past its time limit a worker may go before it counts as hung and is terminated. */
export const HANG_GRACE_MS = 2_000;
/** How long a cancelled worker has to confirm before it is terminated. */
const CANCEL_GRACE_MS = 1_000;
const WATCHDOG_EVERY_MS = 250;
const PREVIEW_CHARS = 500;
/** How many call records a run keeps (the newest): a script in a long loop must not keep one per call. */
export const CALL_WINDOW = 100;
/** A call's arguments larger than this are kept as a preview of their JSON ("… N KB more"). */
const ARGUMENTS_CHARS = 2_000;
/** What one kept record may take beyond its arguments (its result preview, names, numbers). */
const RECORD_OVERHEAD = PREVIEW_CHARS + 200;

/** The arguments as a call record keeps them: as they are, or a preview of their JSON when large. */
function keptArguments(args: Record<string, unknown>): unknown {
  return jsonSizeAtMost(args, ARGUMENTS_CHARS) > ARGUMENTS_CHARS ? previewText(JSON.stringify(args), ARGUMENTS_CHARS) : args;
}

/** `text`: a string result as it is, anything else as its JSON. */
function preview(text: string): string {
  // A copy, not a slice: a slice would keep the whole result alive with the record.
  return previewText(text, PREVIEW_CHARS);
}

/**
 * One script run, host side: sends the script to a worker, brokers each tool call it makes
 * through `broker` (every call passes the consent gate on its own: approving one approves
 * nothing else), answers the script with data only, and assembles the outcome. The host decides
 * what the script cannot: a Stop or consent that cannot be asked ends the run at once, with
 * every call in flight cancelled; a worker that overruns its time limit is terminated.
 */
export class ScriptRun {
  readonly runId = randomUUID();
  readonly done: Promise<CodeRunOutcome>;
  /** After the run: whether its worker must be replaced rather than reused. */
  needsFreshWorker = false;
  private resolveDone!: (outcome: CodeRunOutcome) => void;
  /** The newest call records (a ring log: by count and size), the running ones among them or not. */
  private readonly calls = new RingLog<CodeCall>({ maxEntries: CALL_WINDOW, maxBytes: CALL_WINDOW * (ARGUMENTS_CHARS + RECORD_OVERHEAD) }, (c) => RECORD_OVERHEAD + jsonSizeAtMost(c.arguments, ARGUMENTS_CHARS + 100));
  private callCount = 0;
  /** Calls still running, whatever the window kept: the run's end settles each. */
  private readonly running = new Map<number, CodeCall>();
  private readonly logs: CodeLog[] = [];
  private readonly inflight = new Map<number, AbortController>();
  /** Failed calls by the token their error carries into the script, to recognise one it did not catch. */
  private readonly failures = new Map<string, CodeRunError>();
  private readonly startedAt: number;
  private stopped: CodeRunError | undefined;
  private ended = false;
  private watchdog: NodeJS.Timeout | undefined;
  private cancelTimer: NodeJS.Timeout | undefined;
  /** The host's view of the script's time: everything but waiting for calls (the worker counts finer). */
  private spentMs = 0;
  private countingSince: number | undefined;

  constructor(
    private readonly channel: WorkerChannel,
    private readonly request: CodeRunRequest,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  start(): void {
    const { signal } = this.request;
    if (signal?.aborted) return this.stop(stopError(signal.reason));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.countingSince = this.now();
    this.watchdog = setInterval(() => this.checkHung(), WATCHDOG_EVERY_MS);
    this.channel.send({ type: 'run', request: { runId: this.runId, code: this.request.code, api: this.request.api, limits: this.request.limits } });
  }

  receive(message: ToHost): void {
    if (this.ended || !('runId' in message) || message.runId !== this.runId) return;
    switch (message.type) {
      case 'call':
        void this.call(message.callId, message.server, message.tool, message.argsJson);
        break;
      case 'log': {
        const log: CodeLog = { level: message.level, text: message.text };
        this.logs.push(log);
        this.request.onEvent?.({ type: 'log', log });
        break;
      }
      case 'done':
        this.needsFreshWorker = message.recycle;
        this.end(this.outcomeError(message.outcome), message.outcome.ok ? message.outcome.resultJson : undefined);
        break;
    }
  }

  /** The worker exited or failed under this run. */
  workerLost(reason: string): void {
    this.needsFreshWorker = true;
    this.end(this.stopped ?? { code: 'INTERNAL', message: `The sandbox stopped unexpectedly (${reason}). Run the script again.` });
  }

  private readonly onAbort = () => this.stop(stopError(this.request.signal?.reason));

  /** Ends the run from the host side: the script gets no say, calls in flight are cancelled. */
  private stop(error: CodeRunError): void {
    if (this.ended || this.stopped) return;
    this.stopped = error;
    for (const controller of this.inflight.values()) controller.abort(new HarborError('CANCELLED', error.message));
    if (this.countingSince === undefined && this.watchdog === undefined) return this.end(error); // never started
    this.channel.send({ type: 'cancel', runId: this.runId });
    this.cancelTimer = setTimeout(() => {
      this.needsFreshWorker = true;
      this.channel.terminate();
      this.end(error);
    }, CANCEL_GRACE_MS);
  }

  private async call(callId: number, server: string, tool: string, argsJson: string): Promise<void> {
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(argsJson) as Record<string, unknown>;
    } catch {
      args = {};
    }
    const record: CodeCall = { id: callId, server, tool, arguments: keptArguments(args), status: 'running', startedAt: this.now() };
    this.calls.push(record);
    this.callCount++;
    this.running.set(callId, record);
    this.emitCall(record);
    const controller = new AbortController();
    this.inflight.set(callId, controller);
    this.pauseClock();
    let answer: CallAnswer;
    try {
      const value = scriptValueOf(await this.request.broker.callTool(server, tool, args, { signal: controller.signal }));
      if (this.ended) return; // the script returned without waiting for it
      if (value.ok) {
        const valueJson = JSON.stringify(value.value) ?? 'null';
        answer = { ok: true, valueJson };
        // The preview from the JSON the script gets: a large result is not turned into text twice.
        Object.assign(record, { status: 'done', preview: preview(typeof value.value === 'string' ? value.value : valueJson) });
      } else {
        answer = this.failed(record, { code: 'TOOL_ERROR', message: value.message });
      }
    } catch (error) {
      if (this.ended) return;
      const harbor = error instanceof HarborError ? error : new HarborError('INTERNAL', error instanceof Error ? error.message : String(error));
      if (this.stopped) {
        Object.assign(record, { status: 'error', error: this.stopped, endedAt: this.now() });
        this.emitCall(record);
        return;
      }
      answer = this.failed(record, { code: harbor.code, message: harbor.message });
      if (harbor.code === 'CONSENT_REQUIRED' || harbor.code === 'CONSENT_STALE') {
        // Consent no one can give here: the script ends, and no later call of it reaches a server.
        record.endedAt = this.now();
        this.emitCall(record);
        return this.stop({ code: harbor.code, message: harbor.message });
      }
    } finally {
      this.inflight.delete(callId);
      this.running.delete(callId);
      this.resumeClock();
    }
    record.endedAt = this.now();
    this.emitCall(record);
    if (!this.ended && !this.stopped) this.channel.send({ type: 'answer', runId: this.runId, callId, answer });
  }

  private failed(record: CodeCall, error: CodeRunError): CallAnswer {
    const token = randomBytes(12).toString('hex');
    this.failures.set(token, { code: error.code, message: `${record.server}.${record.tool}: ${error.message}` });
    Object.assign(record, { status: 'error', error });
    return { ok: false, code: error.code, message: error.message, token };
  }

  private emitCall(record: CodeCall): void {
    this.request.onEvent?.({ type: 'call', call: { ...record } });
  }

  private outcomeError(outcome: WorkerOutcome): CodeRunError | undefined {
    if (outcome.ok) return undefined;
    switch (outcome.kind) {
      case 'limit':
        return { code: LIMIT_CODES[outcome.limit], message: limitMessage(outcome.limit, this.request.limits) };
      case 'cancelled':
        return this.stopped ?? { code: 'CANCELLED', message: 'The script was stopped.' };
      case 'threw': {
        const where = outcome.line !== undefined ? ` (line ${outcome.line})` : '';
        const fromCall = outcome.callToken !== undefined ? this.failures.get(outcome.callToken) : undefined;
        if (fromCall) return { code: fromCall.code, message: `The script did not catch a failed tool call${where}: ${fromCall.message}` };
        return { code: 'SCRIPT_ERROR', message: `${outcome.name}: ${outcome.message}${where}` };
      }
    }
  }

  private end(error: CodeRunError | undefined, resultJson?: string): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.watchdog);
    clearTimeout(this.cancelTimer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    for (const controller of this.inflight.values()) controller.abort(new HarborError('CANCELLED', 'The script ended before this call finished.'));
    // Calls the script left running when it returned are cancelled with it.
    for (const call of this.running.values()) {
      if (call.status !== 'running') continue;
      Object.assign(call, { status: 'error', endedAt: this.now(), error: error ?? { code: 'CANCELLED', message: 'The script ended before this call finished.' } });
      this.emitCall(call);
    }
    this.running.clear();
    const base = { logs: [...this.logs], calls: this.calls.toArray().map((c) => ({ ...c })), callCount: this.callCount, ms: this.now() - this.startedAt };
    this.resolveDone(error ? { ok: false, error, ...base } : { ok: true, ...(resultJson !== undefined ? { result: JSON.parse(resultJson) as unknown } : {}), ...base });
  }

  private pauseClock(): void {
    if (this.inflight.size !== 1 || this.countingSince === undefined) return;
    this.spentMs += this.now() - this.countingSince;
    this.countingSince = undefined;
  }

  private resumeClock(): void {
    if (this.inflight.size === 0 && this.countingSince === undefined) this.countingSince = this.now();
  }

  /** The worker checks the time itself; this catches a worker that can no longer check anything. */
  private checkHung(): void {
    const spent = this.spentMs + (this.countingSince === undefined ? 0 : this.now() - this.countingSince);
    if (this.ended || spent <= this.request.limits.timeoutMs + HANG_GRACE_MS) return;
    this.needsFreshWorker = true;
    this.channel.terminate();
    this.end({ code: LIMIT_CODES.time, message: limitMessage('time', this.request.limits) });
  }
}

/** What a Stop says: the abort's own HarborError when it has one. */
function stopError(reason: unknown): CodeRunError {
  if (reason instanceof HarborError) return { code: reason.code, message: reason.message };
  return { code: 'CANCELLED', message: 'The script was stopped before it finished.' };
}
