import { useState } from 'react';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { PageHeader } from '../../ui/PageHeader';
import { ImportPanel } from './ImportPanel';
import { RawJsonEditor } from './RawJsonEditor';
import { ServerForm } from './ServerForm';
import { ServerList } from './ServerList';
import { useRegistry, useSecretNames, useToolCosts } from './use-registry';
import { useServers } from './use-servers';
import './servers.css';

type Panel = { readonly kind: 'none' } | { readonly kind: 'add' } | { readonly kind: 'edit'; readonly name: string } | { readonly kind: 'import' } | { readonly kind: 'json' };

/** The registry editor: every server with its state, and the ways to add, import and edit them. */
export function ServersPage() {
  const [state, reload] = useServers();
  const [registry] = useRegistry();
  const [secrets, reloadSecrets] = useSecretNames();
  const costs = useToolCosts();
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const close = () => {
    setPanel({ kind: 'none' });
    reloadSecrets();
    queueMicrotask(() => document.getElementById('page-title')?.focus());
  };
  const open = (next: Panel) => {
    setPanel(next);
    reloadSecrets();
  };
  const view = registry.status === 'ready' ? registry.value : undefined;
  const takenNames = new Set(view?.servers.map((s) => s.name) ?? []);
  const secretNames = secrets.status === 'ready' && secrets.value.available ? new Set(secrets.value.names) : undefined;
  const editing = panel.kind === 'edit' ? view?.servers.find((s) => s.name === panel.name) : undefined;
  const broken = view && view.problems.length > 0;

  return (
    <>
      <PageHeader title="Servers">The MCP servers Harbor connects to, local and remote.</PageHeader>
      <div className="toolbar" role="toolbar" aria-label="Server actions">
        <button type="button" className="button button--primary" aria-pressed={panel.kind === 'add'} disabled={broken} onClick={() => open({ kind: 'add' })}>
          Add server
        </button>
        <button type="button" className="button" aria-pressed={panel.kind === 'import'} disabled={broken} onClick={() => open({ kind: 'import' })}>
          Import…
        </button>
        <button type="button" className="button" aria-pressed={panel.kind === 'json'} onClick={() => open({ kind: 'json' })}>
          Edit as JSON
        </button>
      </div>
      {registry.status === 'error' ? <ErrorMessage error={registry.error} /> : null}
      {broken && panel.kind !== 'json' ? (
        <div className="notice notice--error" role="alert">
          <p className="notice__message">The configuration file has problems, so Harbor is not using it. Fix them in the JSON editor; the file is left as it is until then.</p>
          <ul>
            {view.problems.map((p, i) => (
              <li key={i}>
                {p.line ? `Line ${p.line}: ` : ''}
                <code>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {secrets.status === 'ready' && !secrets.value.available && (panel.kind === 'add' || panel.kind === 'edit') ? (
        <p className="notice notice--warn">The system keychain cannot be reached{secrets.value.reason ? `: ${secrets.value.reason}` : ''}. Secret values cannot be stored until it can.</p>
      ) : null}
      {panel.kind === 'add' ? <ServerForm takenNames={takenNames} secretNames={secretNames} onDone={close} onCancel={close} /> : null}
      {panel.kind === 'edit' && editing ? (
        <ServerForm key={editing.name} editing={editing} takenNames={takenNames} secretNames={secretNames} onDone={close} onCancel={close} />
      ) : null}
      {panel.kind === 'import' ? <ImportPanel onClose={close} /> : null}
      {panel.kind === 'json' ? <RawJsonEditor onClose={close} /> : null}
      <ServerList
        state={state}
        onRetry={reload}
        {...(view ? { registry: view } : {})}
        costs={costs}
        onEdit={(name) => {
          open({ kind: 'edit', name });
          queueMicrotask(() => window.scrollTo({ top: 0 }));
        }}
        onAdd={() => open({ kind: 'add' })}
      />
    </>
  );
}
