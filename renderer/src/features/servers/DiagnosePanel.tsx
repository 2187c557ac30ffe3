import { useEffect, useState } from 'react';
import type { DoctorReportData, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';

const STATUS_LABEL = { ok: 'OK', warn: 'Warning', fail: 'Failed', skip: 'Skipped' } as const;

/**
 * The connection doctor on a server's card (`servers.diagnose`, the same steps as `harbor doctor`):
 * each step with its status, the message and the fix. Run when opened and by "Run again"; it
 * changes nothing. With `config`, an entry not saved yet (the add-server form's Test connection).
 */
export function DiagnosePanel({ name, config }: { readonly name: string; readonly config?: Record<string, unknown> }) {
  const api = useHarbor();
  const [report, setReport] = useState<DoctorReportData | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [runs, setRuns] = useState(0);
  const [busy, setBusy] = useState(true);
  useEffect(() => {
    let current = true;
    void api.servers.diagnose({ name, ...(config ? { config } : {}) }).then((result) => {
      if (!current) return;
      setBusy(false);
      setError(result.ok ? undefined : asErrorData(result.error));
      if (result.ok) setReport(result.value);
    });
    return () => {
      current = false;
    };
  }, [api, name, config, runs]);
  return (
    <section className="doctor" aria-label={`Diagnosis of ${name}`} aria-busy={busy}>
      <p className="doctor__summary" role="status">
        {busy ? 'Checking each step…' : report ? (report.ok ? 'Every step passed.' : 'Problems found: see the failed steps and their fixes.') : ''}
      </p>
      {error ? <ErrorMessage error={error} /> : null}
      {report ? (
        <ol className="doctor__checks">
          {report.checks.map((check, i) => (
            <li key={`${check.id}-${i}`} className={`doctor__check doctor__check--${check.status}`}>
              <span className="doctor__status">{STATUS_LABEL[check.status]}</span> <span className="doctor__id">{check.id}</span>
              <span className="doctor__message">{visibleText(check.message)}</span>
              {check.fix ? <span className="doctor__fix">Fix: {visibleText(check.fix)}</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setRuns((n) => n + 1);
        }}
      >
        {busy ? 'Diagnosing…' : 'Run again'}
      </button>
    </section>
  );
}
