import { ImportEnvWarning } from './ImportEnvWarning';
import type { ImportChoice, ImportReportData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { ImportClashes } from './ImportClashes';
import { ImportInputs } from './ImportInputs';

interface Props {
  readonly report: ImportReportData;
  readonly busy: boolean;
  /** The person's choice per clashing server, and how to change it. */
  readonly choices?: Readonly<Record<string, ImportChoice>>;
  readonly onChoice?: (name: string, choice: ImportChoice) => void;
  /** Values typed for the file's inputs, and how to change them and preview with them. */
  readonly inputValues?: Readonly<Record<string, string>>;
  readonly onInputChange?: (id: string, value: string) => void;
  readonly onApplyInputs?: () => void;
  /** The variables that load code the person ticked (by name). */
  readonly allowedEnv?: ReadonlySet<string>;
  readonly onAllowEnv?: (name: string, on: boolean) => void;
}

/** What an import would do, before anything is written. Names and places only: never a secret's value. */
export function ImportPreview({
  report,
  busy,
  choices = {},
  onChoice = () => undefined,
  inputValues = {},
  onInputChange = () => undefined,
  onApplyInputs = () => undefined,
  allowedEnv = new Set(),
  onAllowEnv = () => undefined,
}: Props) {
  const fresh = report.servers.filter((s) => !report.clashes.some((c) => c.renamedTo === s.name));
  return (
    <div className="import-preview" role="region" aria-label="Import preview">
      <h3>
        From {report.label}: <code>{report.source}</code>
      </h3>
      {report.codeLoadingEnv?.length ? <ImportEnvWarning entries={report.codeLoadingEnv} ticked={allowedEnv} onToggle={onAllowEnv} /> : null}
      {fresh.length > 0 ? (
        <>
          <h4>Will add</h4>
          <table className="table">
            <caption className="visually-hidden">Servers that will be added</caption>
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Runs</th>
              </tr>
            </thead>
            <tbody>
              {fresh.map((s) => (
                <tr key={s.name}>
                  <th scope="row">
                    {visibleText(s.name)}
                    {s.enabled ? null : <span className="badge import-preview__off">off</span>}
                  </th>
                  <td>
                    <code>{visibleText(s.target)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : report.clashes.length === 0 ? (
        <p>Nothing new to add.</p>
      ) : null}
      {report.identical.length > 0 ? <p className="muted">Already here, skipped: {report.identical.join(', ')}.</p> : null}
      <ImportClashes clashes={report.clashes} choices={choices} busy={busy} onChoice={onChoice} />
      {report.secretsMoved.length > 0 ? (
        <>
          <h4>Secrets that move to the keychain</h4>
          <p className="muted">Harbor&apos;s file will hold only a reference to each; the value goes to the system keychain.</p>
          <ul className="import-preview__list" aria-label="Secrets that move to the keychain">
            {report.secretsMoved.map((m) => (
              <li key={`${m.server}.${m.where}.${m.key}`}>
                <strong>{m.server}</strong> {m.where === 'env' ? 'environment variable' : 'header'} <code>{m.key}</code> → keychain <code>{m.secret}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.keychainUnavailable && report.secretsMoved.length > 0 ? (
        <div className="notice notice--error" role="alert">
          <p className="notice__message">No system keychain is available, so these secrets cannot be imported yet: nothing will be written until one is.</p>
          <p>{report.keychainUnavailable}</p>
        </div>
      ) : null}
      {report.secretsNotMoved.length > 0 ? (
        <div className="notice notice--warn">
          <p className="notice__message">These look secret but mix text with a variable, so they stay in plain text:</p>
          <ul>
            {report.secretsNotMoved.map((s) => (
              <li key={`${s.server}.${s.where}.${s.key}`}>
                {s.server}: {s.where}.{s.key}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {report.secretReferences.length > 0 ? <SecretReferences references={report.secretReferences} /> : null}
      <ImportInputs inputs={report.inputsReferenced} values={inputValues} busy={busy} onChange={onInputChange} onApply={onApplyInputs} />
      {report.unresolvedVariables.length > 0 ? (
        <>
          <h4>Variables Harbor does not expand (replace them with real values)</h4>
          <ul className="import-preview__list">
            {report.unresolvedVariables.map((v) => (
              <li key={`${v.server}.${v.where}.${v.variable}`}>
                <code>{v.variable}</code> in {v.server} {v.where}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.skipped.length > 0 ? (
        <>
          <h4>Skipped (their entries have problems)</h4>
          <ul className="import-preview__list">
            {report.skipped.map((s) => (
              <li key={s.name}>
                <strong>{s.name}</strong>: {s.problems.join('; ')}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.warnings.length > 0 ? (
        <>
          <h4>Notes</h4>
          <ul className="import-preview__list">
            {report.warnings.map((w, i) => (
              <li key={i}>
                <strong>{w.server}</strong>: {w.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/**
 * Every keychain reference in the file. One to a secret the file did not bring is how a config
 * could send a secret of yours elsewhere: it is marked, and Harbor asks before giving it.
 */
function SecretReferences({ references }: { readonly references: ImportReportData['secretReferences'] }) {
  const foreign = references.filter((r) => !r.createdByFile);
  return (
    <div className={foreign.length ? 'notice notice--warn' : undefined}>
      <h4>Keychain secrets the servers use</h4>
      {foreign.length ? (
        <p className="notice__message">
          This file names {foreign.length === 1 ? 'a secret' : 'secrets'} it did not create. Harbor sends a secret only to the servers it belongs to: it will ask you
          before giving {foreign.length === 1 ? 'it' : 'them'} to these servers.
        </p>
      ) : null}
      <ul className="import-preview__list" aria-label="Keychain secrets the servers use">
        {references.map((r) => (
          <li key={`${r.server}.${r.where}.${r.secret}`}>
            <strong>{visibleText(r.server)}</strong> {visibleText(r.where)} → <code>{visibleText(r.secret)}</code>{' '}
            {r.createdByFile ? <span className="muted">(moved from this file)</span> : <strong className="import-preview__foreign">not created by this file</strong>}
          </li>
        ))}
      </ul>
    </div>
  );
}
