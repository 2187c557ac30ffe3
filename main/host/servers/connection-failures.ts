import { ProtocolError, SdkError, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { isNetworkFailure, isNotConnectedText } from './sdk-error-text';
import { urlElicitationFailure } from './url-elicitation';

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
  if (error instanceof HarborError) return error;
  // What the SDK said when the probe was cut short is the failure to report.
  if (error instanceof ProbeInterruptedError) return toHarborError(error.cause, ctx);
  const detail = ctx.stderrTail?.trim() ? ctx.stderrTail : undefined;
  const where = `"${ctx.server}"`;
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
