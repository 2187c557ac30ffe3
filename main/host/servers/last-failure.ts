import type { ConnectionState, ServerSummary } from '../../../preload/contract';

type LastError = NonNullable<ServerSummary['lastError']>;

/** Codes that say the person has not allowed the launch: a question, not a failure of the server. */
const CONSENT_CODES: ReadonlySet<string> = new Set(['CONSENT_REQUIRED', 'CONSENT_DENIED']);

/**
 * A server's last real failure (an error or a crash, not a launch the person has not allowed),
 * kept until it is ready again: a launch question that follows a crash — waiting, or answered
 * Deny — must not hide what went wrong before it (issue #31, item 10).
 */
export class LastFailure {
  private last: LastError | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Every state the connection takes goes through here. */
  note(state: ConnectionState): void {
    if (state.kind === 'ready') this.last = undefined;
    else if (state.kind === 'error' && !CONSENT_CODES.has(state.code)) {
      this.last = { code: state.code, message: state.message, ...(state.stderrTail ? { stderrTail: state.stderrTail } : {}), at: this.now() };
    } else if (state.kind === 'restarting' && state.message) {
      this.last = { message: state.message, ...(state.stderrTail ? { stderrTail: state.stderrTail } : {}), at: this.now() };
    }
  }

  /** The failure to show beside `state`, when the state does not say it itself (waiting, denied, starting, stopped). */
  beside(state: ConnectionState): LastError | undefined {
    if (state.kind === 'ready' || state.kind === 'restarting') return undefined;
    if (state.kind === 'error' && !CONSENT_CODES.has(state.code)) return undefined;
    return this.last;
  }
}
