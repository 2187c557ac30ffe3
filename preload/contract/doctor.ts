/**
 * The connection doctor (`harbor doctor`, the server card's Diagnose, the add-server form's Test
 * connection): each server's checks in order, each ok / warn / fail / skip with a message and,
 * where there is one, the fix. The doctor never changes anything.
 */
import { z } from 'zod';
import { ErrorCode } from './errors';

export const DoctorCheckData = z.object({
  /** registry, command, runtime, cwd, consent, secrets, address, tls, first-request, sign-in, handshake, catalog, sandbox. */
  id: z.string(),
  status: z.enum(['ok', 'warn', 'fail', 'skip']),
  message: z.string(),
  fix: z.string().optional(),
  /** A failed check's kind, for the exit code (`harbor servers`'s: 2 registry, 3 connection, 4 a decision missing). */
  code: ErrorCode.optional(),
});
export type DoctorCheckData = z.infer<typeof DoctorCheckData>;

export const DoctorReportData = z.object({
  server: z.string(),
  /** No check failed (warnings allowed). */
  ok: z.boolean(),
  checks: z.array(DoctorCheckData),
});
export type DoctorReportData = z.infer<typeof DoctorReportData>;

export const doctorCommands = {
  /**
   * Diagnoses one saved server (`name`), or an entry not saved yet (`config`, with the name it
   * would have: the add-server form's Test connection; no launch, so no handshake).
   */
  'servers.diagnose': {
    request: z.object({ name: z.string().min(1).max(100), config: z.record(z.string(), z.unknown()).optional() }).strict(),
    response: DoctorReportData,
  },
};
