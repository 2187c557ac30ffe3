/**
 * The messages between a CodeSandbox (host side) and its worker thread. Types only: the worker
 * entry imports this file with `import type`, so it runs unbuilt (Node strips the types).
 * Values cross as JSON text: nothing but data ever reaches the script.
 */
import type { CodeLimits, LimitName } from './limits';

/** What the host hands a new worker: the prelude's source (vm-prelude.ts), so the worker imports no sibling at run time. */
export interface SandboxWorkerData {
  readonly prelude: string;
}

/** Servers and their tool names, as the script's `tools` object offers them. */
export type ApiShape = Readonly<Record<string, readonly string[]>>;

export interface RunRequest {
  readonly runId: string;
  readonly code: string;
  readonly api: ApiShape;
  readonly limits: CodeLimits;
}

/** What a brokered call answers the script: its value (JSON), or the error it throws. */
export type CallAnswer =
  | { readonly ok: true; readonly valueJson: string }
  | {
      readonly ok: false;
      readonly message: string;
      /** TOOL_ERROR (the tool said isError), or the Host's code (CONSENT_DENIED, TIMEOUT, …). */
      readonly code: string;
      /** Lets the host recognise this error when the script does not catch it (see ScriptFailure.callToken). */
      readonly token: string;
    };

export type ToWorker =
  | { readonly type: 'run'; readonly request: RunRequest }
  | { readonly type: 'answer'; readonly runId: string; readonly callId: number; readonly answer: CallAnswer }
  /** End the run now (a Stop, or consent that cannot be asked): the script gets no say. */
  | { readonly type: 'cancel'; readonly runId: string };

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** How a run ended, as the worker saw it. */
export type WorkerOutcome =
  | { readonly ok: true; /** The return value as JSON; absent for undefined. */ readonly resultJson?: string }
  | { readonly ok: false; readonly kind: 'threw'; readonly name: string; readonly message: string; readonly line?: number; readonly callToken?: string }
  | { readonly ok: false; readonly kind: 'limit'; readonly limit: LimitName }
  | { readonly ok: false; readonly kind: 'cancelled' };

export type ToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'call'; readonly runId: string; readonly callId: number; readonly server: string; readonly tool: string; readonly argsJson: string }
  | { readonly type: 'log'; readonly runId: string; readonly level: LogLevel; readonly text: string }
  /** `recycle`: this worker's engine may be in a bad state; start a fresh one for the next run. */
  | { readonly type: 'done'; readonly runId: string; readonly outcome: WorkerOutcome; readonly recycle: boolean };
