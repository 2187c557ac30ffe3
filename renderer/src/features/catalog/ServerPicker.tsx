import { useId } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { usePersisted } from '../../lib/persisted';
import { StateBadge } from '../servers/StateBadge';

/** The picker's value for every server at once. */
export const ALL_SERVERS = '';

/**
 * Which catalog to show: every enabled server (the default), or the one picked — kept across
 * reloads and shared by Tools, Resources and Prompts. A picked server that is gone or disabled
 * falls back to all of them.
 */
export function usePickedServer(servers: readonly ServerSummary[]): readonly [ServerSummary | undefined, (name: string) => void] {
  const [picked, pick] = usePersisted('catalog.server', ALL_SERVERS);
  return [servers.find((s) => s.enabled && s.name === picked), pick] as const;
}

interface Props {
  readonly servers: readonly ServerSummary[];
  readonly current: ServerSummary | undefined;
  readonly onPick: (name: string) => void;
  /** How many items of this page's kind a ready server offers, for the option text. */
  readonly count: (server: ServerSummary) => number;
  readonly noun: string;
}

export function ServerPicker({ servers, current, onPick, count, noun }: Props) {
  const id = useId();
  const enabled = servers.filter((s) => s.enabled);
  return (
    <div className="picker">
      <label htmlFor={id} className="picker__label">
        Server
      </label>
      <select id={id} className="input picker__select" value={current?.name ?? ALL_SERVERS} onChange={(e) => onPick(e.target.value)}>
        <option value={ALL_SERVERS}>All servers</option>
        {enabled.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
            {s.state.kind === 'ready' ? ` — ${count(s)} ${count(s) === 1 ? noun.replace(/s$/, '') : noun}` : ''}
          </option>
        ))}
      </select>
      {current ? <StateBadge state={current.state} /> : null}
    </div>
  );
}
