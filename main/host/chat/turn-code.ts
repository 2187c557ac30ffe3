import type { CodeLimits } from '../code-mode/limits';
import type { ApiShape } from '../code-mode/protocol';
import type { CodeSandbox } from '../code-mode/sandbox';

/** Code mode in a turn: the sandbox and what its scripts may call. */
export interface TurnCode {
  readonly sandbox: CodeSandbox;
  readonly api: ApiShape;
  readonly limits: CodeLimits;
  /** "on": run_code replaces the tools; "auto": it is offered beside them. */
  readonly only: boolean;
}
