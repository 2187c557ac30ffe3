import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HarborErrorData, ImportChoice, ImportReportData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { codeLoadingNames } from './ImportEnvWarning';
import { ImportPreview } from './ImportPreview';

/** How long typing a new name must pause before the preview is made again with it. */
const RENAME_PREVIEW_DELAY_MS = 400;

/**
 * Import servers from Claude Desktop, VS Code or Cursor: pick a detected file (or type a path),
 * see exactly what would be added and which secrets move to the keychain, decide for each server
 * whose name is taken here (skip it, or import it under another name), then import.
 */
export function ImportPanel({ onClose }: { readonly onClose: () => void }) {
  const api = useHarbor();
  const id = useId();
  const loadSources = useCallback(() => api.registry.importSources({}), [api]);
  const [sources] = useResult(loadSources);
  const [picked, setChoice] = useState<string>('');
  const [otherPath, setOtherPath] = useState('');
  // Per clashing server (by its name in the file): skip (the default) or rename.
  const [choices, setChoices] = useState<Readonly<Record<string, ImportChoice>>>({});
  const [preview, setPreview] = useState<ImportReportData | undefined>();
  const [done, setDone] = useState<ImportReportData | undefined>();
  const [busy, setBusy] = useState<'preview' | 'apply' | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  // Values for the file's inputs (VS Code), typed in the preview; sent with the preview and the import.
  const [inputValues, setInputValues] = useState<Readonly<Record<string, string>>>({});
  const filledInputs = Object.fromEntries(Object.entries(inputValues).filter(([, value]) => value !== ''));
  const withInputs = Object.keys(filledInputs).length > 0 ? { inputs: filledInputs } : {};
  // Variables that load code (NODE_OPTIONS, LD_PRELOAD…) the person allowed, each by its own box.
  const [allowedEnv, setAllowedEnv] = useState<ReadonlySet<string>>(() => new Set());
  const needsEnv = codeLoadingNames(preview);
  const allowEnv = needsEnv.filter((name) => allowedEnv.has(name));

  // Until the person picks, the first file that exists is chosen.
  const detected = sources.status === 'ready' ? (sources.value.find((s) => s.exists)?.path ?? 'other') : '';
  const choice = picked || detected;
  const path = choice === 'other' ? otherPath.trim() : choice;

  /** Every clash decided: the person's choice, else skip. */
  const decided = (report: ImportReportData | undefined, chosen: Readonly<Record<string, ImportChoice>>) =>
    Object.fromEntries((report?.clashes ?? []).map((c) => [c.name, chosen[c.name] ?? ({ action: 'skip' } as const)]));
  const withChoices = (chosen: Readonly<Record<string, ImportChoice>>) => (Object.keys(chosen).length > 0 ? { choices: chosen } : {});

  const runPreview = async (chosen = choices) => {
    if (!path) return;
    setBusy('preview');
    setError(undefined);
    setDone(undefined);
    const result = await api.registry.importPreview({ path, ...withInputs, ...withChoices(chosen) });
    setBusy(undefined);
    if (result.ok) setPreview(result.value);
    else {
      setPreview(undefined);
      setError(asErrorData(result.error));
    }
  };

  // A changed choice previews again (the new name, its problems, the secrets under it); typing a name waits for a pause.
  const pendingChoices = useRef<Readonly<Record<string, ImportChoice>> | undefined>(undefined);
  useEffect(() => {
    if (!pendingChoices.current) return;
    const chosen = pendingChoices.current;
    const timer = setTimeout(() => {
      pendingChoices.current = undefined;
      void runPreview(chosen);
    }, RENAME_PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
    // runPreview reads the latest state; only a new choice schedules it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [choices]);
  const choose = (name: string, choice: ImportChoice) => {
    const next = { ...decided(preview, choices), [name]: choice };
    pendingChoices.current = next;
    setChoices(next);
  };

  const apply = async () => {
    if (!preview) return;
    setBusy('apply');
    setError(undefined);
    const result = await api.registry.importApply({ path: preview.source, ...withInputs, ...withChoices(decided(preview, choices)), ...(allowEnv.length ? { allowEnv } : {}) });
    setBusy(undefined);
    if (result.ok) {
      setDone(result.value);
      setPreview(undefined);
    } else setError(asErrorData(result.error));
  };

  return (
    <section className="panel import-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Import servers</h2>
      <p className="muted">
        Copy the servers you set up in another app. Nothing is overwritten, and secrets found in the file (tokens, keys) go to the system keychain instead of Harbor&apos;s file.
      </p>
      {sources.status === 'loading' ? <Loading label="Looking for other apps' configuration files…" /> : null}
      {sources.status === 'error' ? <ErrorMessage error={sources.error} /> : null}
      {sources.status === 'ready' ? (
        <fieldset className="field import-panel__sources">
          <legend className="field__label">From</legend>
          {sources.value.map((source) => (
            <label key={source.path} className="schema-form__check import-panel__source">
              <input
                type="radio"
                name={`${id}-source`}
                value={source.path}
                checked={choice === source.path}
                disabled={!source.exists || busy !== undefined}
                onChange={() => {
                  setChoice(source.path);
                  setPreview(undefined);
                  setInputValues({});
                  setChoices({});
                }}
              />
              <span>
                <strong>{source.label}</strong> <code>{source.path}</code>{' '}
                <span className={`badge ${source.exists ? 'badge--ready' : ''}`}>{source.exists ? 'Found' : 'Not found'}</span>
              </span>
            </label>
          ))}
          <label className="schema-form__check import-panel__source">
            <input
              type="radio"
              name={`${id}-source`}
              value="other"
              checked={choice === 'other'}
              disabled={busy !== undefined}
              onChange={() => {
                setChoice('other');
                setPreview(undefined);
                setChoices({});
              }}
            />
            <span>Another file</span>
          </label>
          {choice === 'other' ? (
            <input
              className="input input--code"
              aria-label="Path of the file to import"
              placeholder="~/path/to/mcp.json"
              value={otherPath}
              spellCheck={false}
              disabled={busy !== undefined}
              onChange={(e) => {
                setOtherPath(e.target.value);
                setPreview(undefined);
                setChoices({});
              }}
            />
          ) : null}
        </fieldset>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      {preview ? (
        <ImportPreview
          report={preview}
          busy={busy === 'apply'}
          choices={choices}
          onChoice={choose}
          inputValues={inputValues}
          onInputChange={(inputId, value) => setInputValues((values) => ({ ...values, [inputId]: value }))}
          onApplyInputs={() => void runPreview()}
          allowedEnv={allowedEnv}
          onAllowEnv={(name, on) => setAllowedEnv((before) => (on ? new Set([...before, name]) : new Set([...before].filter((n) => n !== name))))}
        />
      ) : null}
      {done ? <ImportDone report={done} /> : null}
      <div className="actions">
        {!preview || done ? (
          <button type="button" className="button button--primary" disabled={!path || busy !== undefined} onClick={() => void runPreview()}>
            {busy === 'preview' ? 'Reading…' : done ? 'Preview again' : 'Preview import'}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary"
            disabled={
              busy !== undefined ||
              preview.clashes.some((c) => c.problem !== undefined) ||
              preview.added.length === 0 ||
              allowEnv.length < needsEnv.length ||
              (preview.keychainUnavailable !== undefined && preview.secretsMoved.length > 0)
            }
            onClick={() => void apply()}
          >
            {busy === 'apply' ? 'Importing…' : `Import ${preview.added.length} server${preview.added.length === 1 ? '' : 's'}`}
          </button>
        )}
        <button type="button" className="button" disabled={busy === 'apply'} onClick={onClose}>
          {done ? 'Close' : 'Cancel'}
        </button>
      </div>
    </section>
  );
}

function ImportDone({ report }: { readonly report: ImportReportData }) {
  return (
    <div className="notice notice--ok" role="status">
      <p className="notice__message">
        {report.written
          ? `Imported ${report.added.length} server${report.added.length === 1 ? '' : 's'}: ${report.added.join(', ')}.`
          : 'Nothing was imported: every server is already here.'}
      </p>
      {report.secretsMoved.length > 0 ? (
        <p>
          {report.secretsMoved.length} secret{report.secretsMoved.length === 1 ? '' : 's'} moved to the keychain. {report.source} still holds{' '}
          {report.secretsMoved.length === 1 ? 'it' : 'them'} in plain text: remove {report.secretsMoved.length === 1 ? 'it' : 'them'} there once you no longer use that app.
        </p>
      ) : null}
      {report.clashes.some((c) => c.skipped) ? <p>Skipped, as you chose: {report.clashes.filter((c) => c.skipped).map((c) => c.name).join(', ')}.</p> : null}
      {report.written ? <p>Enabled servers start now; each asks before it runs a program on your computer, unless you mark it trusted.</p> : null}
    </div>
  );
}
