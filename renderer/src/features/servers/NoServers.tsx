import { EmptyState } from '../../ui/EmptyState';

/** No servers yet: the three ways to get some. */
export function NoServers({ onAdd, onImport, onJson }: { readonly onAdd: () => void; readonly onImport: () => void; readonly onJson: () => void }) {
  return (
    <EmptyState title="No servers configured">
      <p>Add a server, import the ones you use in Claude Desktop, VS Code or Cursor, or edit the configuration as JSON (the <code>mcpServers</code> shape those apps use).</p>
      <div className="empty__actions">
        <button type="button" className="button button--primary" onClick={onAdd}>
          Add a server
        </button>
        <button type="button" className="button" onClick={onImport}>
          Import from another app
        </button>
        <button type="button" className="button" onClick={onJson}>
          Write JSON
        </button>
      </div>
    </EmptyState>
  );
}
