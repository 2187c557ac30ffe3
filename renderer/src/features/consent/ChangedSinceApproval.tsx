import type { ServerSummary } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { useCatalog } from '../catalog/use-catalog';
import { asTool, CHANGED_LABEL, type ToolChange, type ToolItem } from '../tools/tool-item';
import { DefinitionDiff } from './DefinitionDiff';

/** The mark beside a tool whose server changed it after the person approved it. */
export function ChangedMark() {
  return <span className="badge badge--starting">{CHANGED_LABEL}</span>;
}

/**
 * What changed in a tool since the person approved it, with the same diff the call-time dialog
 * shows. Until they approve the new version, the model is offered the one they approved.
 */
export function ChangedSinceApproval({ name, change }: { readonly name: string; readonly change: ToolChange }) {
  return (
    <div className="notice notice--warn" role="note" aria-label={`${name} ${CHANGED_LABEL}`}>
      <p className="notice__message">
        “{visibleText(name)}” {CHANGED_LABEL} ({change.changed.join(', ')}). The model still sees it as you approved it; running it asks you
        again, with this change.
      </p>
      <DefinitionDiff before={change.before} after={change.after} changed={change.changed} />
    </div>
  );
}

/** A server card's list of its tools that changed since the person approved them (nothing when none did). */
export function ServerToolChanges({ server }: { readonly server: ServerSummary }) {
  const [catalog] = useCatalog(server, ['tools']);
  if (catalog?.status !== 'ready' || !catalog.value.toolChanges?.length) return null;
  const changes = catalog.value.toolChanges;
  const tools = catalog.value.tools.map((raw) => asTool(raw, changes)).filter((t): t is ToolItem & { change: ToolChange } => t?.change !== undefined);
  return (
    <section className="server-detail__section" aria-label={`Tools of ${server.name} ${CHANGED_LABEL}`}>
      <h3>Changed since you approved them</h3>
      {tools.map((tool) => (
        <ChangedSinceApproval key={tool.name} name={tool.name} change={tool.change} />
      ))}
    </section>
  );
}
