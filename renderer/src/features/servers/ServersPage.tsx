import { Braces, FileInput, Plus, Search } from 'lucide-react';
import { useCallback, useState } from 'react';
import type { RegistryView } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { navigate, useRouteDetail } from '../../app/use-route';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { ImportPanel } from './ImportPanel';
import { RawJsonEditor } from './RawJsonEditor';
import { ServerDetail } from './ServerDetail';
import { ServerForm } from './ServerForm';
import { matchesQuery, ServerList } from './ServerList';
import { NoServers } from './NoServers';
import { useServerStatus } from './server-status';
import { useDiscardGuard } from './use-discard-guard';
import { useRegistry, useSecretNames, useToolCosts } from './use-registry';
import './servers.css';
import './server-form.css';
import './raw-editor.css';
import './import.css';

type Panel = { readonly kind: 'none' } | { readonly kind: 'add' } | { readonly kind: 'edit'; readonly name: string } | { readonly kind: 'import' } | { readonly kind: 'json' };

/** What the discard question calls a panel's unsaved edits. */
function unsavedWhat(panel: Panel): string {
  if (panel.kind === 'edit') return `your changes to ${panel.name}`;
  if (panel.kind === 'add') return 'the new server';
  if (panel.kind === 'json') return 'your changes to the configuration file';
  return 'your changes';
}

/**
 * The registry editor: a compact list of servers (searchable) beside the selected server's
 * details, and the ways to add, import and edit them. Unsaved edits are never dropped without
 * asking.
 */
export function ServersPage() {
  const [state, reload] = useServerStatus();
  const [registry] = useRegistry();
  const [secrets, reloadSecrets] = useSecretNames();
  const costs = useToolCosts();
  const selected = useRouteDetail('servers');
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [dirty, setDirty] = useState(false);
  const [query, setQuery] = useState('');
  const guard = useDiscardGuard(dirty ? unsavedWhat(panel) : undefined);

  // Another server chosen (the list, a notification, the navigation's indicator): its page, not the open editor.
  const [shownFor, setShownFor] = useState(selected);
  if (shownFor !== selected) {
    setShownFor(selected);
    setPanel({ kind: 'none' });
    setDirty(false);
  }

  const open = (next: Panel) =>
    guard.confirm(() => {
      setDirty(false);
      setPanel(next);
      reloadSecrets();
    });
  const close = useCallback(() => {
    setDirty(false);
    setPanel({ kind: 'none' });
    reloadSecrets();
    queueMicrotask(() => document.getElementById('page-title')?.focus());
  }, [reloadSecrets]);
  const leave = () => guard.confirm(close);
  /** Saved: that server's page (a new name, or a renamed one, is where the person goes next). */
  const saved = (name: string) => {
    close();
    if (selected !== name) navigate(hrefFor('servers', name));
  };

  const view = registry.status === 'ready' ? registry.value : undefined;
  const servers = state.status === 'ready' ? state.value : [];
  const takenNames = new Set(view?.servers.map((s) => s.name) ?? []);
  const secretNames = secrets.status === 'ready' && secrets.value.available ? new Set(secrets.value.names) : undefined;
  // Why the keychain cannot be reached (undefined: it can, or it is not known yet).
  const keychainProblem = secrets.status === 'ready' && !secrets.value.available ? (secrets.value.reason ?? '') : undefined;
  const broken = view !== undefined && view.problems.length > 0;
  const wide = panel.kind === 'import' || panel.kind === 'json';
  const visible = servers.filter((s) => matchesQuery(s, query));
  const current = servers.find((s) => s.name === selected) ?? (panel.kind === 'none' ? visible[0] : undefined);
  const configOf = (name: string) => view?.servers.find((s) => s.name === name)?.config;
  const editing = panel.kind === 'edit' ? view?.servers.find((s) => s.name === panel.name) : undefined;

  const pane = () => {
    if (panel.kind === 'add') return <ServerForm takenNames={takenNames} secretNames={secretNames} keychainProblem={keychainProblem} onDone={saved} onCancel={leave} onDirtyChange={setDirty} />;
    if (panel.kind === 'edit' && editing) {
      return <ServerForm key={editing.name} editing={editing} takenNames={takenNames} secretNames={secretNames} keychainProblem={keychainProblem} onDone={saved} onCancel={leave} onDirtyChange={setDirty} />;
    }
    if (!current) return null;
    const config = configOf(current.name);
    return <ServerDetail key={current.name} server={current} config={config} cost={costs.get(current.name)} onEdit={config && !broken ? () => open({ kind: 'edit', name: current.name }) : undefined} />;
  };

  return (
    <>
      <PageHeader title="Servers">The MCP servers Harbor connects to, local and remote.</PageHeader>
      <div className="toolbar servers-toolbar" role="toolbar" aria-label="Server actions">
        {servers.length > 0 && !wide ? (
          <label className="servers-search">
            <Search className="servers-search__icon" aria-hidden="true" size={15} />
            <input className="input" type="search" aria-label="Search servers" placeholder="Search servers" value={query} onChange={(e) => setQuery(e.target.value)} />
          </label>
        ) : null}
        <button type="button" className="button button--primary button--with-icon" aria-pressed={panel.kind === 'add'} disabled={broken} onClick={() => open({ kind: 'add' })}>
          <Plus aria-hidden="true" size={15} />
          Add server
        </button>
        <button type="button" className="button button--with-icon" aria-pressed={panel.kind === 'import'} disabled={broken} onClick={() => open({ kind: 'import' })}>
          <FileInput aria-hidden="true" size={15} />
          Import…
        </button>
        <button type="button" className="button button--with-icon" aria-pressed={panel.kind === 'json'} onClick={() => open({ kind: 'json' })}>
          <Braces aria-hidden="true" size={15} />
          Edit as JSON
        </button>
      </div>
      {registry.status === 'error' ? <ErrorMessage error={registry.error} /> : null}
      {broken && panel.kind !== 'json' ? <BrokenFile view={view} onOpenJson={() => open({ kind: 'json' })} /> : null}
      {keychainProblem !== undefined && (panel.kind === 'add' || panel.kind === 'edit') ? (
        // One line: the reason and what it means open where a value is typed (KeyValueEditor).
        <p className="keychain-line" role="status">
          No system keychain: secret values cannot be saved for now.
        </p>
      ) : null}
      {wide ? (
        panel.kind === 'import' ? (
          <ImportPanel onClose={close} />
        ) : (
          <RawJsonEditor onClose={leave} onDirtyChange={setDirty} />
        )
      ) : state.status === 'loading' ? (
        <Loading label="Loading servers…" />
      ) : state.status === 'error' ? (
        <ErrorMessage error={state.error} onRetry={reload} />
      ) : servers.length === 0 && panel.kind !== 'add' ? (
        <NoServers onAdd={() => open({ kind: 'add' })} onImport={() => open({ kind: 'import' })} onJson={() => open({ kind: 'json' })} />
      ) : (
        <div className={`servers-layout${servers.length === 0 ? ' servers-layout--single' : ''}`}>
          {servers.length > 0 ? (
            <div className="servers-layout__list">
              <ServerList servers={servers} query={query} selected={panel.kind === 'add' ? undefined : panel.kind === 'edit' ? panel.name : current?.name} costs={costs} />
            </div>
          ) : null}
          <div className="servers-layout__detail">{pane()}</div>
        </div>
      )}
      {guard.dialog}
    </>
  );
}

/** The file cannot be used as it is: each problem at its line, and the way to fix it. */
function BrokenFile({ view, onOpenJson }: { readonly view: RegistryView; readonly onOpenJson: () => void }) {
  return (
    <ErrorMessage
      error={{ code: 'CONFIG_INVALID', message: `${view.path} has problems.` }}
      title="The configuration file has problems, so Harbor is not using it"
      fix={
        <>
          <p>Fix them in the JSON editor; the file is left as it is until then.</p>
          <ul className="servers-problems">
            {view.problems.map((p, i) => (
              <li key={i}>
                {p.line ? `Line ${p.line}: ` : ''}
                <code>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </>
      }
      actions={
        <button type="button" className="button button--small" onClick={onOpenJson}>
          Open the JSON editor
        </button>
      }
    />
  );
}
