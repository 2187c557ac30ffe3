import { Switch } from '../../ui/Switch';
import { ChangedMark } from '../consent/ChangedSinceApproval';
import type { ToolItem } from './tool-item';

interface Props {
  readonly tool: ToolItem;
  /** Why the model is not offered it as is (from the Host's one gatherer), in words. */
  readonly reason?: string | undefined;
  readonly enabled: boolean;
  readonly canToggle: boolean;
  readonly selected: boolean;
  readonly onToggle: (enabled: boolean) => void;
  readonly onOpen: () => void;
}

/** One tool: its name and (server-written, so plain-text) description, the model switch, and Run. */
export function ToolRow({ tool, reason, enabled, canToggle, selected, onToggle, onOpen }: Props) {
  return (
    <div className={`item-row${enabled ? '' : ' item-row--off'}${selected ? ' item-row--selected' : ''}`}>
      <div className="item-row__main">
        <p className="item-row__name">
          {tool.name}
          {tool.title && tool.title !== tool.name ? <span className="item-row__title">{tool.title}</span> : null}
          {tool.change ? <ChangedMark /> : null}
        </p>
        {tool.description ? <p className="item-row__desc">{tool.description}</p> : null}
        {reason ? <p className="item-row__reason muted">{reason}</p> : null}
      </div>
      <div className="item-row__side">
        {canToggle ? (
          <Switch label="Offered" accessibleName={`Offer ${tool.name} to the model`} checked={enabled} onChange={onToggle} />
        ) : null}
        <button type="button" className="button button--small" aria-label={`Run ${tool.name}`} onClick={onOpen}>
          Run…
        </button>
      </div>
    </div>
  );
}
