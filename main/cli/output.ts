import type { ErrorCode } from '../../preload/contract';
import { HarborError } from '../host/errors';
import { terminalSafeJson, terminalText } from './terminal-text';

export const EXIT = {
  OK: 0,
  TOOL_ERROR: 1,
  USAGE: 2,
  CONNECTION: 3,
  CONSENT: 4,
} as const;

/**
 * Where the CLI writes. With --json, stdout carries only machine output (one JSON value per line)
 * and every human message goes to stderr, so `harbor --json … | jq` always parses. Every human
 * line passes `terminalText()` here, the one place where text a server wrote is made inert for the
 * terminal (terminal-text.ts).
 */
export class CliOutput {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /** Machine output: a JSON line with --json, else the human rendering given. */
  result(value: unknown, human?: string): void {
    if (this.json) this.stdout.write(`${terminalSafeJson(String(JSON.stringify(value)))}\n`);
    else if (human !== undefined) this.stdout.write(human.endsWith('\n') ? terminalText(human) : `${terminalText(human)}\n`);
  }

  /** Human text that is the command's output (stdout), suppressed from stdout under --json. */
  text(line: string): void {
    if (this.json) this.stderr.write(`${terminalText(line)}\n`);
    else this.stdout.write(`${terminalText(line)}\n`);
  }

  /** Logs and progress: always stderr. */
  info(line: string): void {
    this.stderr.write(`${terminalText(line)}\n`);
  }

  error(line: string): void {
    this.stderr.write(`harbor: ${terminalText(line)}\n`);
  }
}

export class UsageError extends Error {}

type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of each Host error: every code is listed, so a new code without an exit code
 * fails type-checking. USAGE: the person can fix the command or the config; CONSENT: the person
 * must decide; CONNECTION: the server, the network or Harbor itself failed.
 */
const EXIT_FOR_CODE: Record<ErrorCode, ExitCode> = {
  BAD_REQUEST: EXIT.USAGE,
  UNKNOWN_COMMAND: EXIT.CONNECTION,
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
  PROTOCOL_ERROR: EXIT.CONNECTION,
  TIMEOUT: EXIT.CONNECTION,
  CANCELLED: EXIT.CONNECTION,
  TOOL_NOT_FOUND: EXIT.CONNECTION,
  CONSENT_REQUIRED: EXIT.CONSENT,
  CONSENT_STALE: EXIT.CONSENT,
  CONSENT_DENIED: EXIT.CONSENT,
  KEYCHAIN_UNAVAILABLE: EXIT.CONNECTION,
  SECRET_MISSING: EXIT.CONNECTION,
  AUTH_REQUIRED: EXIT.CONNECTION,
  AUTH_FAILED: EXIT.CONNECTION,
  MODEL_NOT_CONFIGURED: EXIT.USAGE,
  MODEL_ERROR: EXIT.CONNECTION,
  CONVERSATION_NOT_FOUND: EXIT.USAGE,
  CHAT_BUSY: EXIT.CONNECTION,
  DATA_CORRUPT: EXIT.CONNECTION,
  // The person must open a page before the server goes on, as with consent.
  URL_ELICITATION_REQUIRED: EXIT.CONSENT,
};

/** Maps a Host error to the CLI's exit-code contract. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof HarborError) return EXIT_FOR_CODE[error.code];
  return EXIT.CONNECTION;
}
