import { HarborError } from '../host/errors';

export const EXIT = {
  OK: 0,
  TOOL_ERROR: 1,
  USAGE: 2,
  CONNECTION: 3,
  CONSENT: 4,
} as const;

/**
 * Where the CLI writes. With --json, stdout carries only machine output (one JSON value per line)
 * and every human message goes to stderr, so `harbor --json … | jq` always parses.
 */
export class CliOutput {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /** Machine output: a JSON line with --json, else the human rendering given. */
  result(value: unknown, human?: string): void {
    if (this.json) this.stdout.write(`${JSON.stringify(value)}\n`);
    else if (human !== undefined) this.stdout.write(human.endsWith('\n') ? human : `${human}\n`);
  }

  /** Human text that is the command's output (stdout), suppressed from stdout under --json. */
  text(line: string): void {
    if (this.json) this.stderr.write(`${line}\n`);
    else this.stdout.write(`${line}\n`);
  }

  /** Logs and progress: always stderr. */
  info(line: string): void {
    this.stderr.write(`${line}\n`);
  }

  error(line: string): void {
    this.stderr.write(`harbor: ${line}\n`);
  }
}

export class UsageError extends Error {}

/** Maps a Host error to the CLI's exit-code contract. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof HarborError) {
    switch (error.code) {
      case 'CONFIG_INVALID':
      case 'CONFIG_IO':
      case 'BAD_REQUEST':
      case 'SERVER_NOT_FOUND':
      case 'SERVER_EXISTS':
      case 'SERVER_DISABLED':
      case 'MODEL_NOT_CONFIGURED':
      case 'CONVERSATION_NOT_FOUND':
        return EXIT.USAGE;
      case 'CONSENT_REQUIRED':
      case 'CONSENT_STALE':
      case 'CONSENT_DENIED':
        return EXIT.CONSENT;
      default:
        return EXIT.CONNECTION;
    }
  }
  return EXIT.CONNECTION;
}
