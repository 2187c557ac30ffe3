import type { DoctorReportData, ErrorCode } from '../../../preload/contract';
import type { CliCommandCode } from '../command';
import { exitCodeForFailures } from '../output';

const MARK: Readonly<Record<DoctorReportData['checks'][number]['status'], string>> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/** One server's report as a person reads it: the server, then one line per check, its fix below. */
function humanReport(report: DoctorReportData): string {
  const lines = [`${report.server}: ${report.ok ? 'ok' : 'problems found'}`];
  for (const check of report.checks) {
    const [first = '', ...rest] = check.message.split('\n');
    lines.push(`  ${MARK[check.status]}  ${check.id.padEnd(14)} ${first}`);
    for (const line of rest) lines.push(`        | ${line}`);
    if (check.fix) lines.push(`        fix: ${check.fix}`);
  }
  return lines.join('\n');
}

/**
 * `harbor doctor [SERVER]`: each enabled server's checks (or the named one's), one report per
 * server as it finishes; --json prints `{"server","ok","checks":[{"id","status","message","fix"?}]}`
 * per line. Exit as `harbor servers`: 0 all ok, 3 a connection failure, 2 a registry problem, 4
 * only the person's decisions missing. Changes nothing.
 */
export const doctorCommand: CliCommandCode = {
  async run(ctx) {
    const host = await ctx.host();
    const names = ctx.args[0] !== undefined ? [ctx.args[0]] : host.doctor.enabledServers();
    if (names.length === 0) ctx.out.info('No enabled servers to check. Add one to the registry file, or run "harbor import FILE".');
    const codes: ErrorCode[] = [];
    for (const name of names) {
      const report = await host.doctor.diagnose(name);
      const checks = report.checks.map(({ id, status, message, fix }) => ({ id, status, message, ...(fix !== undefined ? { fix } : {}) }));
      ctx.out.result({ server: report.server, ok: report.ok, checks }, humanReport(report));
      codes.push(...report.checks.flatMap((check) => (check.status === 'fail' ? [check.code ?? ('INTERNAL' as const)] : [])));
    }
    return exitCodeForFailures(codes);
  },
};
