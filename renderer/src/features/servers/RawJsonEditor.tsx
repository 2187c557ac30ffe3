import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HarborErrorData, RegistryProblem } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { JsonProblems } from './JsonProblems';
import { LineNumbers, LineTints } from './LineMarks';

/** How long typing must pause before the text is checked. */
const CHECK_DELAY_MS = 400;

interface Props {
  /** Leaves the editor; it asks first when there are unsaved changes (see onDirtyChange). */
  readonly onClose: () => void;
  readonly onDirtyChange?: (dirty: boolean) => void;
}

/**
 * The configuration file as JSON. Checked as the person types (a pause, then the Host's own
 * loader): each problem is marked beside its line and listed, one click away. Saving checks again
 * and writes nothing while a problem remains.
 */
export function RawJsonEditor({ onClose, onDirtyChange }: Props) {
  const api = useHarbor();
  const load = useCallback(() => api.registry.get({}), [api]);
  const [state] = useResult(load);
  if (state.status === 'loading') return <Loading label="Loading the configuration…" />;
  if (state.status === 'error') return <ErrorMessage error={state.error} />;
  return <Editor path={state.value.path} initialText={state.value.text} {...(state.value.hash ? { loadedHash: state.value.hash } : {})} initialProblems={state.value.problems} onClose={onClose} {...(onDirtyChange ? { onDirtyChange } : {})} />;
}

interface EditorProps extends Props {
  readonly path: string;
  readonly initialText: string;
  /** Of the file as loaded: a save is refused when the file changed since (another Harbor, a terminal). */
  readonly loadedHash?: string;
  readonly initialProblems: readonly RegistryProblem[];
}

function Editor({ path, initialText, loadedHash, initialProblems, onClose, onDirtyChange }: EditorProps) {
  const api = useHarbor();
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(initialText);
  const [savedText, setSavedText] = useState(initialText);
  const [hash, setHash] = useState(loadedHash);
  const [problems, setProblems] = useState<readonly RegistryProblem[]>(initialProblems);
  const [checkedText, setCheckedText] = useState(initialText);
  const gutter = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const dirty = text !== savedText;
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);

  // The check as the person types: the latest text only, after a pause.
  useEffect(() => {
    if (text === checkedText) return;
    let live = true;
    const timer = setTimeout(() => {
      void api.registry.check({ text }).then((result) => {
        if (!live) return;
        if (result.ok) setProblems(result.value.problems);
        setCheckedText(text);
      });
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, text, checkedText]);

  const save = async () => {
    setBusy(true);
    setSaved(undefined);
    setError(undefined);
    const result = await api.registry.save({ text, ...(hash ? { hash } : {}) });
    setBusy(false);
    if (!result.ok) {
      setError(asErrorData(result.error));
      return;
    }
    setProblems(result.value.problems);
    setCheckedText(text);
    if (result.value.saved) {
      setSavedText(text);
      setHash(result.value.hash);
      setSaved(savedMessage(result.value.started ?? [], result.value.restarted ?? []));
    } else {
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
    follow(element);
  };

  /** The line numbers and marks scroll with the text. */
  const follow = (element: HTMLTextAreaElement) => {
    for (const layer of [gutter.current, backdrop.current]) {
      if (!layer) continue;
      layer.scrollTop = element.scrollTop;
      layer.scrollLeft = layer === backdrop.current ? element.scrollLeft : 0;
    }
  };

  const checking = text !== checkedText;
  return (
    <section className="panel raw-editor" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Edit the configuration as JSON</h2>
      <p className="muted raw-editor__lead">
        <code>{path}</code> — the <code>mcpServers</code> shape of Claude Desktop and Cursor, plus Harbor&apos;s own fields. Put secrets in the keychain and write{' '}
        <code>{'${secret:NAME}'}</code>.
      </p>
      <div className="raw-editor__box">
        <LineNumbers text={text} problems={problems} layerRef={gutter} />
        <div className="raw-editor__column">
          <LineTints text={text} problems={problems} layerRef={backdrop} />
          <textarea
            ref={area}
            className="raw-editor__text"
            aria-label="Configuration JSON"
            aria-invalid={problems.length > 0 ? true : undefined}
            aria-describedby={`${id}-status`}
            spellCheck={false}
            wrap="off"
            value={text}
            disabled={busy}
            onScroll={(e) => follow(e.currentTarget)}
            onChange={(e) => {
              setText(e.target.value);
              setSaved(undefined);
            }}
          />
        </div>
      </div>
      <JsonProblems id={`${id}-status`} problems={problems} checking={checking} onGoToLine={goToLine} />
      {saved ? (
        <p className="notice notice--ok" role="status">
          {saved}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <div className="actions">
        <button type="button" className="button button--primary" disabled={busy || !dirty} onClick={() => void save()}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onClose}>
          Close
        </button>
        {dirty && !busy ? <span className="muted server-form__unsaved">Unsaved changes</span> : null}
      </div>
    </section>
  );
}

/** What saving did to the servers, in one sentence: only what is true. */
function savedMessage(started: readonly string[], restarted: readonly string[]): string {
  const parts: string[] = [];
  if (started.length) parts.push(`started ${started.join(', ')}`);
  if (restarted.length) parts.push(`restarted ${restarted.join(', ')}`);
  if (parts.length === 0) return 'Saved. No server needed to start or restart.';
  const said = parts.join('; ');
  return `Saved: ${said}. The others kept running as they were.`;
}
