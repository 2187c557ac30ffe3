import { useCallback, useId, useRef, useState } from 'react';
import type { HarborErrorData, RegistryProblem } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';

/**
 * The configuration file as JSON. Saving validates first: nothing is written while there are
 * problems, and each problem names its line (marked in the gutter, one click away).
 */
export function RawJsonEditor({ onClose }: { readonly onClose: () => void }) {
  const api = useHarbor();
  const load = useCallback(() => api.registry.get({}), [api]);
  const [state] = useResult(load);
  if (state.status === 'loading') return <Loading label="Loading the configuration…" />;
  if (state.status === 'error') return <ErrorMessage error={state.error} />;
  return <Editor path={state.value.path} initialText={state.value.text} initialProblems={state.value.problems} onClose={onClose} />;
}

interface EditorProps {
  readonly path: string;
  readonly initialText: string;
  readonly initialProblems: readonly RegistryProblem[];
  readonly onClose: () => void;
}

function Editor({ path, initialText, initialProblems, onClose }: EditorProps) {
  const api = useHarbor();
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const [text, setText] = useState(initialText);
  const [problems, setProblems] = useState<readonly RegistryProblem[]>(initialProblems);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const lineCount = text.split('\n').length;
  const badLines = new Set(problems.flatMap((p) => (p.line ? [p.line] : [])));

  const save = async () => {
    setBusy(true);
    setSaved(false);
    setError(undefined);
    const result = await api.registry.save({ text });
    setBusy(false);
    if (!result.ok) {
      setError(asErrorData(result.error));
      return;
    }
    setProblems(result.value.problems);
    setSaved(result.value.saved);
    if (!result.value.saved) {
      const first = result.value.problems.find((p) => p.line);
      if (first?.line) goToLine(first.line, false);
    }
  };

  /** Selects a line and scrolls it into view; focus follows unless the caller keeps it (e.g. on the problem list). */
  const goToLine = (line: number, focus = true) => {
    const element = area.current;
    if (!element) return;
    const lines = element.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
    const end = start + (lines[line - 1]?.length ?? 0);
    if (focus) element.focus();
    element.setSelectionRange(start, end);
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight) || 20;
    element.scrollTop = Math.max(0, (line - 3) * lineHeight);
    if (gutter.current) gutter.current.scrollTop = element.scrollTop;
  };

  return (
    <section className="panel raw-editor" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Edit the configuration as JSON</h2>
      <p className="muted">
        <code>{path}</code> — the <code>mcpServers</code> shape of Claude Desktop and Cursor, plus Harbor&apos;s own fields. Put secrets in the keychain and write{' '}
        <code>{'${secret:NAME}'}</code>.
      </p>
      <div className="raw-editor__box">
        <div ref={gutter} className="raw-editor__gutter" aria-hidden="true">
          {Array.from({ length: lineCount }, (_, i) => (
            <span key={i} className={badLines.has(i + 1) ? 'raw-editor__line raw-editor__line--bad' : 'raw-editor__line'}>
              {i + 1}
            </span>
          ))}
        </div>
        <textarea
          ref={area}
          className="raw-editor__text"
          aria-label="Configuration JSON"
          aria-invalid={problems.length > 0 ? true : undefined}
          aria-describedby={problems.length > 0 ? `${id}-problems` : undefined}
          spellCheck={false}
          wrap="off"
          value={text}
          disabled={busy}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
        />
      </div>
      {problems.length > 0 ? (
        <div className="notice notice--error" id={`${id}-problems`} role="alert">
          <p className="notice__message">Not saved: the file has {problems.length === 1 ? 'a problem' : `${problems.length} problems`}. Nothing was written.</p>
          <ul className="raw-editor__problems" aria-label="Problems">
            {problems.map((problem, i) => (
              <li key={i}>
                {problem.line ? (
                  <button type="button" className="button button--small button--quiet" onClick={() => goToLine(problem.line!)}>
                    Line {problem.line}
                  </button>
                ) : null}{' '}
                <code>{problem.path}</code>: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {saved ? (
        <p className="notice notice--ok" role="status">
          Saved. Servers whose configuration changed were restarted; the others kept running.
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <div className="actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void save()}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
