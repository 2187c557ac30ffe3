import type { ErrorCode } from '../../preload/contract';
import { HarborError } from '../host/errors';
import { terminalSafeJson, terminalText } from './terminal-text';

/** The CLI's exit codes, as README's CLI section documents them. */
export const EXIT = {
  OK: 0,
  /** The server answered with an error: a tool result with isError, or a JSON-RPC error (or a malformed answer). */
  TOOL_ERROR: 1,
  /** The person can fix the command line or the configuration (a missing secret included). */
  USAGE: 2,
  /** The server could not be started or reached, or stopped answering; also Harbor's own failures. */
  CONNECTION: 3,
  /** A decision of the person is missing (launch approval, tool approval). */
  CONSENT: 4,
  /** The OS keychain cannot be reached: nothing that needs it was done. */
  KEYCHAIN: 5,
  /** Interrupted (Ctrl-C), as shells report SIGINT. */
  INTERRUPTED: 130,
} as const;

/**
 * Where the CLI writes. With --json, stdout carries only machine output (one JSON value per line)
 * and every human message goes to stderr, so `harbor --json … | jq` always parses. Every human
 * line passes `terminalText()` here, the one place where text a server wrote is made inert for the
 * terminal (terminal-text.ts).
 */
/** How long coalesced output may wait (see CliOutput.coalesce): under what a person notices. */
const COALESCE_MS = 25;
/** Held output beyond this leaves at once. */
const COALESCE_MAX_CHARS = 64 * 1024;

export class CliOutput {
  /** While coalescing: what is written and not yet out, in order, one entry per run of one stream. */
  private held: { stream: NodeJS.WritableStream; text: string }[] | undefined;
  private heldBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private coalesceMs = COALESCE_MS;

  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /**
   * Until the returned end is called, what is written leaves at most `ms` later, the lines of
   * that while in one write per run of one stream, in the order written (stdout and stderr lines
   * interleave as before). For a command that prints a line per step of a fast loop (`harbor
   * exec`'s trace: two lines per tool call), where a write per line cost more than the step. The
   * end writes what is held; so does the process's exit (an unexpected error's handler).
   */
  coalesce(ms: number = COALESCE_MS): () => void {
    if (this.held) return () => undefined;
    this.held = [];
    this.coalesceMs = ms;
    const flush = () => this.flush();
    process.once('exit', flush);
    return () => {
      process.removeListener('exit', flush);
      this.flush();
      this.held = undefined;
    };
  }

  private write(stream: NodeJS.WritableStream, text: string): void {
    const held = this.held;
    if (!held) {
      stream.write(text);
      return;
    }
    const last = held.at(-1);
    if (last?.stream === stream) last.text += text;
    else held.push({ stream, text });
    this.heldBytes += text.length;
    if (this.heldBytes >= COALESCE_MAX_CHARS) this.flush();
    // Unref'd: held output never keeps the process alive (its end, or the exit, writes it).
    else this.flushTimer ??= setTimeout(() => this.flush(), this.coalesceMs).unref();
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const held = this.held;
    if (!held || held.length === 0) return;
    this.held = [];
    this.heldBytes = 0;
    for (const { stream, text } of held) stream.write(text);
  }

  /** Machine output: a JSON line with --json, else the human rendering given. */
  result(value: unknown, human?: string): void {
    if (this.json) this.write(this.stdout, `${terminalSafeJson(String(JSON.stringify(value)))}\n`);
    else if (human !== undefined) this.write(this.stdout, human.endsWith('\n') ? terminalText(human) : `${terminalText(human)}\n`);
  }

  /** Human text that is the command's output (stdout), suppressed from stdout under --json. */
  text(line: string): void {
    if (this.json) this.write(this.stderr, `${terminalText(line)}\n`);
    else this.write(this.stdout, `${terminalText(line)}\n`);
  }

  /** Logs and progress: always stderr. */
  info(line: string): void {
    this.write(this.stderr, `${terminalText(line)}\n`);
  }

  error(line: string): void {
    this.write(this.stderr, `harbor: ${terminalText(line)}\n`);
  }
}

export class UsageError extends Error {}

type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of each Host error: every code is listed, so a new code without an exit code
 * fails type-checking. Each follows the meaning documented on EXIT (and in README).
 */
const EXIT_FOR_CODE: Record<ErrorCode, ExitCode> = {
  BAD_REQUEST: EXIT.USAGE,
  UNKNOWN_COMMAND: EXIT.USAGE,
  FORBIDDEN: EXIT.CONNECTION,
  INTERNAL: EXIT.CONNECTION,
  CONFIG_INVALID: EXIT.USAGE,
  CONFIG_IO: EXIT.USAGE,
  SERVER_NOT_FOUND: EXIT.USAGE,
  SERVER_EXISTS: EXIT.USAGE,
  SERVER_DISABLED: EXIT.USAGE,
  SPAWN_FAILED: EXIT.CONNECTION,
  SANDBOX_UNAVAILABLE: EXIT.CONNECTION,
  CONNECT_FAILED: EXIT.CONNECTION,
  CONNECTION_CLOSED: EXIT.CONNECTION,
  // The server answered the request, with a JSON-RPC error (or an answer that is not MCP).
  PROTOCOL_ERROR: EXIT.TOOL_ERROR,
  TIMEOUT: EXIT.CONNECTION,
  CANCELLED: EXIT.INTERRUPTED,
  // Naming a tool the server does not have is a mistake in the command.
  TOOL_NOT_FOUND: EXIT.USAGE,
  CONSENT_REQUIRED: EXIT.CONSENT,
  CONSENT_STALE: EXIT.CONSENT,
  CONSENT_DENIED: EXIT.CONSENT,
  KEYCHAIN_UNAVAILABLE: EXIT.KEYCHAIN,
  // Fixed by "harbor secret set NAME": configuration, like a bad registry entry.
  SECRET_MISSING: EXIT.USAGE,
  AUTH_REQUIRED: EXIT.CONNECTION,
  AUTH_FAILED: EXIT.CONNECTION,
  MODEL_NOT_CONFIGURED: EXIT.USAGE,
  MODEL_ERROR: EXIT.CONNECTION,
  CONVERSATION_NOT_FOUND: EXIT.USAGE,
  CHAT_BUSY: EXIT.CONNECTION,
  // A damaged data file, or one Harbor cannot write: the person has to act (the message says how); retrying will not help.
  DATA_CORRUPT: EXIT.USAGE,
  // The person must open a page before the server goes on, as with consent.
  URL_ELICITATION_REQUIRED: EXIT.CONSENT,
};

/** The exit code of one Host error code. */
export function exitCodeForCode(code: ErrorCode): ExitCode {
  return EXIT_FOR_CODE[code];
}

/** Maps a Host error to the CLI's exit-code contract. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof HarborError) return EXIT_FOR_CODE[error.code];
  return EXIT.CONNECTION;
}

/**
 * One exit code for a command that worked on several servers (`servers`, `tools`): 0 when none
 * failed, else the code of the first failure that is not a missing decision — 4 only when every
 * failure is a launch or a call waiting for the person's approval.
 */
export function exitCodeForFailures(codes: readonly ErrorCode[]): number {
  if (codes.length === 0) return EXIT.OK;
  const exits = codes.map(exitCodeForCode);
  return exits.find((exit) => exit !== EXIT.CONSENT) ?? EXIT.CONSENT;
}
