import { describe, expect, it } from 'vitest';
import { EXIT, UsageError, exitCodeFor, exitCodeForFailures } from '../../main/cli/output';
import { HarborError } from '../../main/host/errors';
import { ERROR_CODES, type ErrorCode } from '../../preload/contract';

const exitOf = (code: ErrorCode) => exitCodeFor(new HarborError(code, 'probe'));

describe("the CLI's exit codes", () => {
  it('gives every error code one of the documented exit codes', () => {
    const documented = new Set<number>([EXIT.TOOL_ERROR, EXIT.USAGE, EXIT.CONNECTION, EXIT.CONSENT, EXIT.KEYCHAIN, EXIT.INTERRUPTED]);
    for (const code of ERROR_CODES) expect(documented.has(exitOf(code)), code).toBe(true);
  });

  it('a consent decision still missing exits 4; a fixable command or config exits 2; a failed connection 3', () => {
    for (const code of ['CONSENT_REQUIRED', 'CONSENT_STALE', 'CONSENT_DENIED'] as const) expect(exitOf(code), code).toBe(EXIT.CONSENT);
    const usage = ['BAD_REQUEST', 'CONFIG_INVALID', 'CONFIG_IO', 'SERVER_NOT_FOUND', 'SERVER_EXISTS', 'SERVER_DISABLED', 'MODEL_NOT_CONFIGURED', 'CONVERSATION_NOT_FOUND'] as const;
    for (const code of usage) expect(exitOf(code), code).toBe(EXIT.USAGE);
    for (const code of ['SPAWN_FAILED', 'CONNECT_FAILED', 'CONNECTION_CLOSED', 'TIMEOUT', 'AUTH_REQUIRED', 'INTERNAL'] as const) expect(exitOf(code), code).toBe(EXIT.CONNECTION);
  });

  it('a tool the server does not have and a secret not set are mistakes the person fixes: 2', () => {
    expect(exitOf('TOOL_NOT_FOUND')).toBe(2);
    expect(exitOf('SECRET_MISSING')).toBe(2);
  });

  it("the server's JSON-RPC error exits 1 like a tool's isError; no keychain 5; interrupted 130", () => {
    expect(exitOf('PROTOCOL_ERROR')).toBe(1);
    expect(exitOf('KEYCHAIN_UNAVAILABLE')).toBe(5);
    expect(exitOf('CANCELLED')).toBe(130);
  });

  it('a usage mistake exits 2 and anything else thrown exits 3', () => {
    expect(exitCodeFor(new UsageError('no such flag'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new Error('boom'))).toBe(EXIT.CONNECTION);
  });

  it('several servers: 4 only when every failure waits for the person, else the first other failure decides', () => {
    expect(exitCodeForFailures([])).toBe(0);
    expect(exitCodeForFailures(['CONSENT_REQUIRED', 'CONSENT_REQUIRED'])).toBe(4);
    expect(exitCodeForFailures(['CONSENT_REQUIRED', 'SPAWN_FAILED'])).toBe(3);
    expect(exitCodeForFailures(['CONFIG_INVALID', 'SPAWN_FAILED'])).toBe(2);
  });
});
