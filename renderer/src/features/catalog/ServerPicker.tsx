import { useId, useState } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { StateBadge } from '../servers/StateBadge';

/** The server last looked at, kept while the app runs so Tools → Resources stays on it. */
let remembered: string | undefined;

/** Which server's catalog to show: the one picked, else the one looked at last, else the first ready one. */
export function usePickedServer(servers: readonly ServerSummary[]): readonly [ServerSummary | undefined, (name: string) => void] {
  const [picked, setPicked] = useState<string | undefined>(remembered);
  const enabled = servers.filter((s) => s.enabled);
  const server =
    enabled.find((s) => s.name === picked) ?? enabled.find((s) => s.state.kind === 'ready') ?? enabled[0];
  const pick = (name: string) => {
    remembered = name;
    setPicked(name);
  };
  return [server, pick] as const;
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
      <select id={id} className="input picker__select" value={current?.name ?? ''} onChange={(e) => onPick(e.target.value)}>
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
