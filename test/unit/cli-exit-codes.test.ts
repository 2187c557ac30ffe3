import { describe, expect, it } from 'vitest';
import { EXIT, UsageError, exitCodeFor } from '../../main/cli/output';
import { HarborError } from '../../main/host/errors';
import { ERROR_CODES, type ErrorCode } from '../../preload/contract';

const exitOf = (code: ErrorCode) => exitCodeFor(new HarborError(code, 'probe'));

describe("the CLI's exit codes", () => {
  it('gives every error code one of the documented exit codes', () => {
    const documented = new Set<number>([EXIT.USAGE, EXIT.CONNECTION, EXIT.CONSENT]);
    for (const code of ERROR_CODES) expect(documented.has(exitOf(code)), code).toBe(true);
  });

  it('a consent decision still missing exits 4; a fixable command or config exits 2; the rest 3', () => {
    for (const code of ['CONSENT_REQUIRED', 'CONSENT_STALE', 'CONSENT_DENIED'] as const) expect(exitOf(code), code).toBe(EXIT.CONSENT);
    const usage = ['BAD_REQUEST', 'CONFIG_INVALID', 'CONFIG_IO', 'SERVER_NOT_FOUND', 'SERVER_EXISTS', 'SERVER_DISABLED', 'MODEL_NOT_CONFIGURED', 'CONVERSATION_NOT_FOUND'] as const;
    for (const code of usage) expect(exitOf(code), code).toBe(EXIT.USAGE);
    for (const code of ['SPAWN_FAILED', 'TIMEOUT', 'AUTH_REQUIRED', 'INTERNAL', 'SECRET_MISSING'] as const) expect(exitOf(code), code).toBe(EXIT.CONNECTION);
  });

  it('a usage mistake exits 2 and anything else thrown exits 3', () => {
    expect(exitCodeFor(new UsageError('no such flag'))).toBe(EXIT.USAGE);
    expect(exitCodeFor(new Error('boom'))).toBe(EXIT.CONNECTION);
  });
});
