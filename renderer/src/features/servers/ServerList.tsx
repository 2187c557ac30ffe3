import type { ServerSummary } from '../../../../preload/contract';
import { ServerRow } from './ServerRow';

interface Props {
  readonly servers: readonly ServerSummary[];
  /** What the search box holds: matched against names, commands or URLs, and what servers call themselves. */
  readonly query: string;
  readonly selected: string | undefined;
  readonly costs?: ReadonlyMap<string, { toolTokens: number; instructionTokens: number }>;
}

/** Whether a server matches the search box (every word, in any of its names or its command line / URL). */
export function matchesQuery(server: ServerSummary, query: string): boolean {
  const haystack = [server.name, server.target, server.serverInfo?.name ?? ''].join('\n').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** The compact list of servers: one row each, filtered by the search box. */
export function ServerList({ servers, query, selected, costs }: Props) {
  const shown = servers.filter((server) => matchesQuery(server, query));
  if (shown.length === 0) {
    return <p className="muted server-list__none">No server matches “{query}”.</p>;
  }
  return (
    <ul className="server-list" aria-label="Servers">
      {shown.map((server) => {
        const cost = costs?.get(server.name);
        return (
          <li key={server.name}>
            <ServerRow server={server} selected={server.name === selected} tokens={cost ? cost.toolTokens + cost.instructionTokens : undefined} />
          </li>
        );
      })}
    </ul>
  );
}
