import type { ServerSummary } from '../../../../preload/contract';
import { EmptyState } from '../../ui/EmptyState';
import { ServerRunButtons } from '../servers/ServerActions';
import { ServerErrorMessage } from '../servers/ServerErrorMessage';

/** A server that is not connected: say why and offer to start it, instead of starting it behind the person's back. */
export function NotReady({ server, noun }: { readonly server: ServerSummary; readonly noun: string }) {
  const { state } = server;
  const title =
    state.kind === 'starting'
      ? `${server.name} is starting…`
      : state.kind === 'restarting'
        ? `${server.name} is restarting (attempt ${state.attempt} of ${state.maxAttempts})…`
        : state.kind === 'error'
          ? `${server.name} is not connected`
          : `${server.name} is stopped`;
  return (
    <EmptyState title={title}>
      {state.kind === 'error' ? <ServerErrorMessage server={server} state={state} /> : null}
      {state.kind === 'stopped' || state.kind === 'error' ? (
        <>
          <p>Start it to see its {noun}. The Servers page has its details.</p>
          <div className="actions not-ready__actions">
            <ServerRunButtons server={server} />
          </div>
        </>
      ) : (
        <p>Its {noun} appear as soon as it is ready.</p>
      )}
    </EmptyState>
  );
}
