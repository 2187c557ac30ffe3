import type { ErrorCode, HarborErrorData } from '../../preload/contract';

type FieldProblem = NonNullable<HarborErrorData['fields']>[number];
type PageToOpen = NonNullable<HarborErrorData['pages']>[number];

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
    options?: { cause?: unknown; changed?: readonly string[]; fields?: readonly FieldProblem[]; pages?: readonly PageToOpen[] },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarborError';
    this.changed = options?.changed;
    this.fields = options?.fields;
    this.pages = options?.pages;
  }

  /** CONSENT_STALE: the fields of the tool definition that changed since approval. */
  readonly changed: readonly string[] | undefined;
  /** BAD_REQUEST about a value checked against a schema: what is wrong, field by field. */
  readonly fields: readonly FieldProblem[] | undefined;
  /** URL_ELICITATION_REQUIRED: the pages to open before trying again. */
  readonly pages: readonly PageToOpen[] | undefined;

  toData(): HarborErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      ...(this.changed === undefined ? {} : { changed: [...this.changed] }),
      ...(this.fields === undefined ? {} : { fields: this.fields.map((f) => ({ ...f })) }),
      ...(this.pages === undefined ? {} : { pages: this.pages.map((p) => ({ ...p })) }),
    };
  }
}

/** Turns anything thrown into error data without leaking a stack trace. */
export function toErrorData(error: unknown): HarborErrorData {
  if (error instanceof HarborError) return error.toData();
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `Unexpected error: ${message}` };
}

/** A HarborError as it is, anything else as INTERNAL with its message: never relabelled as a connection failure. */
export function asHarborError(error: unknown): HarborError {
  if (error instanceof HarborError) return error;
  const { code, message } = toErrorData(error);
  return new HarborError(code, message);
}
