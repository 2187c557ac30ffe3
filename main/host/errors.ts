import type { ErrorCode, HarborErrorData } from '../../preload/contract';

/**
 * An error a person can act on: a stable code, a message that names the problem and the fix,
 * and optional detail (e.g. a server's stderr tail). Everything that crosses to a user — IPC,
 * WebSocket, CLI — is built from this, never from a stack trace.
 */
export class HarborError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HarborError';
  }

  toData(): HarborErrorData {
    return this.detail === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, detail: this.detail };
  }
}

/** Turns anything thrown into error data without leaking a stack trace. */
export function toErrorData(error: unknown): HarborErrorData {
  if (error instanceof HarborError) return error.toData();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `Unexpected error: ${message}` };
}
