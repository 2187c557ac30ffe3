import type { ServerSummary } from '../../../../preload/contract';
import { hintFor } from '../servers/error-hints';

/** What one not-ready server's line on a catalog page says, and the one action it offers. */
export interface NotReadyWords {
  /** The state in one word, for its badge. */
  readonly state: string;
  /** The badge's colour: a ConnectionState kind. */
  readonly tone: 'stopped' | 'starting' | 'restarting' | 'error';
  /** Why it is not ready: its real error, or that it waits for the person, then its last real error if the state hides it. */
  readonly why: string;
  /** "review": its launch question waits (bring the question back); "start": start it (asks again when it needs permission). */
  readonly action?: 'review' | 'start';
}

/** The last non-empty line of a server's output, when the message does not already quote it. */
function lastLine(stderrTail: string | undefined, message: string): string | undefined {
  const line = (stderrTail ?? '').split('\n').map((l) => l.trim()).filter(Boolean).at(-1);
  return line && !message.includes(line) ? line : undefined;
}

/** A failure said shortly: what the process said last first (what a person acts on), then the Host's message. */
function failure(message: string, stderrTail: string | undefined): string {
  const line = lastLine(stderrTail, message);
  return line ? `${line} (${message})` : message;
}

/**
 * The words of a catalog page's one line about a server that is not ready: a failure says its
 * error (headline, message, last output line); a launch waiting for the person says so; a denied
 * one says it was denied and how to allow it; the last real error stays beside a later question.
 */
export function notReadyWords(server: ServerSummary, waitingForLaunch: boolean, noun: string): NotReadyWords {
  const { state, lastError } = server;
  const earlier = lastError ? ` Last error: ${failure(lastError.message, lastError.stderrTail)}` : '';
  if (waitingForLaunch) return { state: 'Waiting', tone: 'starting', why: `waiting for your permission to start.${earlier}`, action: 'review' };
  switch (state.kind) {
    case 'ready':
      return { state: 'Ready', tone: 'starting', why: `its ${noun} are loading.` };
    case 'starting':
      return { state: 'Starting', tone: 'starting', why: `its ${noun} appear as soon as it is ready.${earlier}` };
    case 'restarting':
      return { state: 'Restarting', tone: 'restarting', why: `attempt ${state.attempt} of ${state.maxAttempts}${state.message ? `: ${failure(state.message, state.stderrTail)}` : '.'}` };
    case 'stopped':
      return { state: 'Stopped', tone: 'stopped', why: `start it to see its ${noun}.${earlier}`, action: 'start' };
    case 'error': {
      const hint = hintFor(server, state);
      if (state.code === 'CONSENT_REQUIRED') return { state: 'Waiting', tone: 'starting', why: `waiting for your permission to start.${earlier}`, action: 'start' };
      if (state.code === 'CONSENT_DENIED') return { state: 'Denied', tone: 'error', why: `${state.message}${earlier}${hint ? ` ${hint.text}` : ''}`, action: 'start' };
      const headline = hint?.title ? `${hint.title}: ` : '';
      return { state: 'Failed', tone: 'error', why: `${headline}${failure(state.message, state.stderrTail)}`, action: 'start' };
    }
  }
}
