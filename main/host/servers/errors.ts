import { ProtocolError, SdkError, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';

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

const NETWORK_FAILURE = /ECONNREFUSED|ECONNRESET|fetch failed|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|network/i;

/**
 * Turns whatever the SDK or a transport threw into a HarborError a person can act on. The SDK's
 * bare "Connection closed" (-32000) never reaches a user without its cause: the exit status and
 * the stderr tail travel with it.
 */
export function toHarborError(error: unknown, ctx: FailureContext): HarborError {
  if (error instanceof HarborError) return error;
  const detail = ctx.stderrTail?.trim() ? ctx.stderrTail : undefined;
  const where = `"${ctx.server}"`;
  if (ctx.userAborted) {
    return new HarborError('CANCELLED', `Cancelled ${ctx.action} on ${where}.`, undefined, { cause: error });
  }
  if (error instanceof UnauthorizedError) {
    return new HarborError('AUTH_REQUIRED', `${where} requires sign-in. Run "harbor login ${ctx.server}".`, undefined, { cause: error });
  }
  if (error instanceof SdkHttpError) {
    const status = (error as { status?: number }).status;
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
        const cause = (error as { cause?: unknown }).cause;
        const text = `${error.message} ${cause instanceof Error ? cause.message : ''}`;
        if (NETWORK_FAILURE.test(text)) {
          return new HarborError('CONNECT_FAILED', `Cannot reach ${where} while ${ctx.action}: ${error.message}. Check that the server is running and the URL is right.`, detail, { cause: error });
        }
        return new HarborError('PROTOCOL_ERROR', `${where} failed while ${ctx.action}: ${error.message}`, detail, { cause: error });
      }
    }
  }
  if (error instanceof ProtocolError) {
    return new HarborError('PROTOCOL_ERROR', `${where} returned an error while ${ctx.action}: ${error.message} (code ${error.code}).`, detail, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/not connected|connection closed/i.test(message)) {
    return new HarborError('CONNECTION_CLOSED', `${where} is not connected${ctx.exit ? ` (${ctx.exit})` : ''} while ${ctx.action}.`, detail, { cause: error });
  }
  if (NETWORK_FAILURE.test(message)) {
    return new HarborError('CONNECT_FAILED', `Cannot reach ${where} while ${ctx.action}: ${message}. Check that the server is running and the URL is right.`, detail, { cause: error });
  }
  return new HarborError('CONNECT_FAILED', `${where} failed while ${ctx.action}: ${message}`, detail, { cause: error });
}
