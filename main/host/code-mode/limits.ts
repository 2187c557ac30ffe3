/**
 * What one script may use. Every limit has a default the person can change: the registry's
 * `"chat": {"codeLimits": {…}}` (the chat and `harbor exec`) and, for one run, `harbor exec`'s
 * flags. A script that reaches a limit ends with an error naming the limit and how to raise it.
 */
export interface CodeLimits {
  /**
   * The script's own running time: computing and waiting on its timers, but not waiting for its
   * tool calls (each call has the server's timeout, and a consent dialog waits for the person).
   */
  readonly timeoutMs: number;
  /** Memory the script's JavaScript heap may allocate. */
  readonly memoryBytes: number;
  /** Tool calls one script may make. */
  readonly maxToolCalls: number;
  /** UTF-8 bytes of everything the script prints (console.*) plus its result as JSON. */
  readonly maxOutputBytes: number;
}

export const DEFAULT_CODE_LIMITS: CodeLimits = {
  timeoutMs: 10_000,
  memoryBytes: 64 * 1024 * 1024,
  maxToolCalls: 100,
  maxOutputBytes: 100_000,
};

/** The limits as the registry spells them (`"codeLimits"` in `"chat"`). */
export interface CodeLimitsConfig {
  readonly timeoutMs?: number | undefined;
  readonly memoryMb?: number | undefined;
  readonly toolCalls?: number | undefined;
  readonly outputBytes?: number | undefined;
}

/** Registry values over the defaults, then one run's overrides (CLI flags) over both. */
export function resolveCodeLimits(config: CodeLimitsConfig | undefined, overrides: Partial<CodeLimits> = {}): CodeLimits {
  return {
    timeoutMs: overrides.timeoutMs ?? config?.timeoutMs ?? DEFAULT_CODE_LIMITS.timeoutMs,
    memoryBytes: overrides.memoryBytes ?? (config?.memoryMb !== undefined ? config.memoryMb * 1024 * 1024 : DEFAULT_CODE_LIMITS.memoryBytes),
    maxToolCalls: overrides.maxToolCalls ?? config?.toolCalls ?? DEFAULT_CODE_LIMITS.maxToolCalls,
    maxOutputBytes: overrides.maxOutputBytes ?? config?.outputBytes ?? DEFAULT_CODE_LIMITS.maxOutputBytes,
  };
}

export type LimitName = 'time' | 'memory' | 'toolCalls' | 'output';

/** The error code a script ends with when it reaches each limit. */
export const LIMIT_CODES = {
  time: 'TIME_LIMIT',
  memory: 'MEMORY_LIMIT',
  toolCalls: 'CALL_LIMIT',
  output: 'OUTPUT_LIMIT',
} as const satisfies Record<LimitName, string>;

/** Says which limit the script reached, its value, and where the person raises it. */
export function limitMessage(limit: LimitName, limits: CodeLimits): string {
  switch (limit) {
    case 'time':
      return `The script ran longer than its time limit (${limits.timeoutMs} ms, not counting time spent waiting for tool calls) and was stopped. Make it do less work, or raise the limit: "chat": {"codeLimits": {"timeoutMs": N}} in the registry, or harbor exec --timeout MS.`;
    case 'memory':
      return `The script used more memory than its limit (${Math.round(limits.memoryBytes / (1024 * 1024))} MB) and was stopped. Keep less data at once, or raise the limit: "chat": {"codeLimits": {"memoryMb": N}}, or harbor exec --memory MB.`;
    case 'toolCalls':
      return `The script tried to make more than ${limits.maxToolCalls} tool calls (its limit) and was stopped. Make fewer calls, or raise the limit: "chat": {"codeLimits": {"toolCalls": N}}, or harbor exec --max-calls N.`;
    case 'output':
      return `The script's output (its logs and result) grew past its limit (${limits.maxOutputBytes} bytes) and the script was stopped. Print less and return a summary, or raise the limit: "chat": {"codeLimits": {"outputBytes": N}}, or harbor exec --max-output BYTES.`;
  }
}
