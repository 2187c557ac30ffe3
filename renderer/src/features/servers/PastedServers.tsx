import { useEffect, useState } from 'react';
import type { HarborErrorData, ImportReportData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import type { PastedServer } from './pasted-servers';

interface Props {
  /** The snippet as pasted: added through the Host's import code, secrets to the keychain as an import does. */
  readonly text: string;
  readonly servers: readonly PastedServer[];
  /** Puts one of them into the form. */
  readonly onFill: (server: PastedServer) => void;
  /** After adding them: the first one added. */
  readonly onAdded: (name: string) => void;
  readonly onDismiss: () => void;
}

/**
 * Several servers found in a pasted `mcpServers` snippet: named, each can fill the form, or all are
 * added at once — previewed first by the import code (a name taken here gets a free one), and
 * left to the form when the snippet needs a decision only the Import panel asks for.
 */
export function PastedServers({ text, servers, onFill, onAdded, onDismiss }: Props) {
  const api = useHarbor();
  const [preview, setPreview] = useState<ImportReportData | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let current = true;
    void api.registry.importPreview({ text, rename: true }).then((result) => {
      if (!current) return;
      if (result.ok) setPreview(result.value);
      else setError(asErrorData(result.error));
    });
    return () => {
      current = false;
    };
  }, [api, text]);
  const renamed = (preview?.clashes ?? []).filter((c) => c.renamedTo);
  const needsDecision = preview && ((preview.codeLoadingEnv ?? []).length > 0 || (preview.lookalike ?? []).length > 0 || preview.inputsReferenced.some((i) => i.filled === undefined));
  const addAll = async () => {
    setBusy(true);
    const result = await api.registry.importApply({ text, rename: true });
    setBusy(false);
    if (!result.ok) {
      setError(asErrorData(result.error));
      return;
    }
    const first = result.value.added[0] ?? renamed[0]?.renamedTo;
    if (result.value.written && first) onAdded(first);
    else setPreview(result.value);
  };
  return (
    <section className="pasted-servers" aria-label="Servers found in the pasted text">
      <p role="status">
        Found {servers.length} servers in the pasted text: {servers.map((s) => s.name).join(', ')}.
      </p>
      {renamed.length > 0 ? <p className="muted">{renamed.map((c) => `"${c.name}" is taken here: it would be added as "${c.renamedTo}".`).join(' ')}</p> : null}
      {needsDecision ? <p className="muted">They need decisions (values for inputs, or variables that load code): fill the form with each instead.</p> : null}
      {error ? <ErrorMessage error={error} /> : null}
      <ul className="pasted-servers__list">
        {servers.map((server) => (
          <li key={server.name}>
            <button type="button" className="button button--small" disabled={busy} onClick={() => onFill(server)}>
              Fill the form with {server.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" className="button button--primary" disabled={busy || !preview || needsDecision === true} onClick={() => void addAll()}>
          {busy ? 'Adding…' : `Add all ${servers.length}`}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
