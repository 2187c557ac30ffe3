import type { ServerSummary } from '../../../../preload/contract';
import { ServerActions } from './ServerActions';
import { StateBadge } from './StateBadge';

export function ServerCard({ server }: { readonly server: ServerSummary }) {
  const { state } = server;
  return (
    <article className="card" aria-labelledby={`server-${server.name}`}>
      <header className="card__header">
        <h2 className="card__title" id={`server-${server.name}`}>
          {server.name}
        </h2>
        <StateBadge state={state} />
      </header>
      <dl className="facts">
        <dt>Transport</dt>
        <dd>{server.transport === 'stdio' ? 'stdio (local process)' : 'HTTP (remote)'}</dd>
        <dt>{server.transport === 'stdio' ? 'Command' : 'URL'}</dt>
        <dd>
          <code>{server.target}</code>
        </dd>
        {server.protocolVersion ? (
          <>
            <dt>Protocol</dt>
            <dd>
              {server.protocolVersion}
              {server.era ? ` (${server.era})` : ''}
            </dd>
          </>
        ) : null}
        {state.kind === 'ready' ? (
          <>
            <dt>Offers</dt>
            <dd>{describeCounts(server.counts)}</dd>
          </>
        ) : null}
        {!server.enabled ? (
          <>
            <dt>Enabled</dt>
            <dd>No — Harbor will not start it</dd>
          </>
        ) : null}
      </dl>
      {state.kind === 'error' ? (
        <div className="notice notice--error">
          <p className="notice__message">{state.message}</p>
          {state.stderrTail ? (
            <details>
              <summary>Server output</summary>
              <pre>{state.stderrTail}</pre>
            </details>
          ) : null}
        </div>
      ) : null}
      <ServerActions server={server} />
    </article>
  );
}

function describeCounts(counts: ServerSummary['counts']): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [
    plural(counts.tools, 'tool'),
    plural(counts.resources + counts.resourceTemplates, 'resource'),
    plural(counts.prompts, 'prompt'),
  ].join(', ');
}
