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
    options?: { cause?: unknown; changed?: readonly string[] },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarborError';
    this.changed = options?.changed;
  }

  /** CONSENT_STALE: the fields of the tool definition that changed since approval. */
  readonly changed: readonly string[] | undefined;

  toData(): HarborErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      ...(this.changed === undefined ? {} : { changed: [...this.changed] }),
    };
  }
}

/** Turns anything thrown into error data without leaking a stack trace. */
export function toErrorData(error: unknown): HarborErrorData {
  if (error instanceof HarborError) return error.toData();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `Unexpected error: ${message}` };
}
