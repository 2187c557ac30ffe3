import { ProtocolError, SdkError, SdkHttpError, SseError, UnauthorizedError } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { isNetworkFailure, isNotConnectedText } from './sdk-error-text';
import { urlElicitationFailure } from './url-elicitation';

// node:http through getBuiltinModule, when a failure is worded: an ES import evaluates it (and its
// HTTP stack, about 80 ms of CPU and 16 MB) at every start of every one-shot command (#32).
const statusText = (status: number): string | undefined => process.getBuiltinModule('node:http').STATUS_CODES[status];

export interface FailureContext {
  readonly server: string;
  /** What Harbor was doing, e.g. "calling tool echo". */
  readonly action: string;
  /** The server's recent stderr, for stdio servers. */
  readonly stderrTail?: string;
  /** How the process ended, if it did: "exited with code 1". */
  readonly exit?: string;
  /** True when the person (or the caller) aborted: a cancellation, not a timeout. */
  readonly userAborted?: boolean;
  /** The first non-MCP line a stdio server wrote on stdout, if it wrote one before any MCP message. */
  readonly strayOutput?: string;
}

/**
 * A stdio server's process ended while the era probe (`server/discover`) was still unanswered:
 * servers built on older SDKs exit on any request before `initialize`. Raised from what the
 * transport saw on the wire, so the era fallback decides on this type, not on the SDK's text.
 */
export class ProbeInterruptedError extends Error {
  constructor(server: string, options: { cause: unknown }) {
    super(`"${server}" closed during the server/discover probe`, options);
    this.name = 'ProbeInterruptedError';
  }
}

/** A stdio server wrote non-MCP output on stdout and answered no request: Harbor closed it. */
export class StrayOutputError extends Error {
  constructor(
    readonly line: string,
    options: { cause: unknown },
  ) {
    super(`non-MCP output on stdout: ${line}`, options);
    this.name = 'StrayOutputError';
  }
}

/** One way a connect tried to reach a remote server, and how it failed. */
export interface TransportTry {
  /** "Streamable HTTP", "HTTP+SSE fallback", … */
  readonly transport: string;
  readonly error: unknown;
}

/** Every transport a connect tried failed: the person is told each, not only the last fallback's. */
export class TransportsFailedError extends Error {
  constructor(readonly tries: readonly TransportTry[]) {
    super(tries.map((t) => `${t.transport}: ${howItFailed(t.error)}`).join('; '), { cause: tries[tries.length - 1]?.error });
    this.name = 'TransportsFailedError';
  }
}

/** A ready connection's transport closed without Harbor asking (a crash, a dropped remote). */
export class ConnectionLostError extends Error {
  constructor() {
    super('Connection closed');
    this.name = 'ConnectionLostError';
  }
}

/**
 * Turns whatever the SDK or a transport threw into a HarborError a person can act on. The SDK's
 * bare "Connection closed" (-32000) never reaches a user without its cause: the exit status and
 * the stderr tail travel with it.
 */
export function toHarborError(error: unknown, ctx: FailureContext): HarborError {
  const failure = failureFor(error, ctx);
  // Said with whatever else went wrong while connecting: stray stdout is the likeliest cause.
  if (ctx.strayOutput === undefined || error instanceof StrayOutputError || failure.code === 'CANCELLED') return failure;
  return new HarborError(failure.code, `${failure.message} It wrote non-MCP output on stdout: "${ctx.strayOutput}".`, failure.detail, { cause: failure.cause });
}

function failureFor(error: unknown, ctx: FailureContext): HarborError {
  if (error instanceof HarborError) return error;
  // What the SDK said when the probe was cut short is the failure to report.
  if (error instanceof ProbeInterruptedError) return toHarborError(error.cause, ctx);
  const detail = ctx.stderrTail?.trim() ? ctx.stderrTail : undefined;
  const where = `"${ctx.server}"`;
  if (error instanceof StrayOutputError) {
    // Nothing MCP ever arrived: the server could not be reached as an MCP server (exit 3), not one that answered with an error.
    return new HarborError(
      'CONNECT_FAILED',
      `${where} wrote non-MCP output on stdout: "${error.line}", and no MCP message. A stdio MCP server may write only JSON-RPC messages on stdout (logs belong on stderr); if this program is not a stdio MCP server (an HTTP server, say), register it by its "url" instead.`,
      detail,
      { cause: error },
    );
  }
  if (error instanceof SseError && typeof error.code === 'number') {
    return new HarborError('CONNECT_FAILED', `${where} answered ${howItFailed(error)} on its HTTP+SSE stream while ${ctx.action}. Check the URL.`, detail, { cause: error });
  }
  if (error instanceof TransportsFailedError) {
    return new HarborError('CONNECT_FAILED', `Cannot connect to ${where} over any transport. ${error.message}. Check the URL.`, detail, { cause: error });
  }
  if (ctx.userAborted) {
    return new HarborError('CANCELLED', `Cancelled ${ctx.action} on ${where}.`, undefined, { cause: error });
  }
  if (error instanceof UnauthorizedError) {
    return new HarborError('AUTH_REQUIRED', `${where} requires sign-in. Run "harbor login ${ctx.server}".`, undefined, { cause: error });
  }
  if (error instanceof SdkHttpError) {
    const status = error.status as number | undefined;
    if (status === 401) {
      return new HarborError('AUTH_REQUIRED', `${where} answered 401 Unauthorized. Run "harbor login ${ctx.server}".`, undefined, { cause: error });
    }
    return new HarborError('CONNECT_FAILED', `${where} answered HTTP ${status ?? 'error'} while ${ctx.action}: ${error.message}`, detail, { cause: error });
  }
  if (error instanceof SdkError) {
    switch (error.code as string) {
      case 'REQUEST_TIMEOUT':
        return new HarborError('TIMEOUT', `${where} did not answer in time while ${ctx.action} (${error.message}).`, detail, { cause: error });
      case 'CONNECTION_CLOSED':
      case 'NOT_CONNECTED':
      case 'SEND_FAILED':
        return new HarborError(
          'CONNECTION_CLOSED',
          `${where} closed the connection while ${ctx.action}${ctx.exit ? ` (${ctx.exit})` : ''}.${detail ? ' Its last output is below.' : ''}`,
          detail,
          { cause: error },
        );
      default: {
        if (isNetworkFailure(error)) {
          return new HarborError('CONNECT_FAILED', `Cannot reach ${where} while ${ctx.action}: ${error.message}. Check that the server is running and the URL is right.`, detail, { cause: error });
        }
        return new HarborError('PROTOCOL_ERROR', `${where} failed while ${ctx.action}: ${error.message}`, detail, { cause: error });
      }
    }
  }
  if (error instanceof ProtocolError) {
    const pagesFirst = urlElicitationFailure(error, ctx.server, ctx.action);
    if (pagesFirst) return pagesFirst;
    return new HarborError('PROTOCOL_ERROR', `${where} returned an error while ${ctx.action}: ${error.message} (code ${error.code}).`, detail, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ConnectionLostError || isNotConnectedText(error)) {
    return new HarborError('CONNECTION_CLOSED', `${where} is not connected${ctx.exit ? ` (${ctx.exit})` : ''} while ${ctx.action}.`, detail, { cause: error });
  }
  if (isNetworkFailure(error)) {
    return new HarborError('CONNECT_FAILED', `Cannot reach ${where} while ${ctx.action}: ${message}. Check that the server is running and the URL is right.`, detail, { cause: error });
  }
  return new HarborError('CONNECT_FAILED', `${where} failed while ${ctx.action}: ${message}`, detail, { cause: error });
}

/** How one transport failed, in a few words: "404 Not Found", "connection refused (ECONNREFUSED)". */
export function howItFailed(error: unknown): string {
  if (error instanceof SdkHttpError) {
    const status = error.status as number | undefined;
    if (status !== undefined) return `${status} ${statusText(status) ?? 'error'}`.trim();
  }
  if (error instanceof SseError && typeof error.code === 'number') return `${error.code} ${statusText(error.code) ?? 'error'}`.trim();
  if (error instanceof SdkError && (error.code as string) === 'REQUEST_TIMEOUT') return 'no answer in time';
  const code = networkCode(error);
  if (code) return `cannot connect (${code})`;
  return error instanceof Error ? error.message : String(error);
}

function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}
