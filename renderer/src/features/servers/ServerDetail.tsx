import { Pencil } from 'lucide-react';
import { useId, useState } from 'react';
import type { ServerSummary } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { ServerLogs } from '../logs/ServerLogs';
import { ServerToolChanges } from '../consent/ChangedSinceApproval';
import { CrashNotice } from './CrashNotice';
import { RemoveServer } from './RemoveServer';
import { ServerRunButtons } from './ServerActions';
import { ServerErrorMessage } from './ServerErrorMessage';
import { StaleListsNotice } from './StaleListsNotice';
import { ConfigFacts, ConnectionFacts } from './ServerFacts';
import { DiagnosePanel } from './DiagnosePanel';
import { ServerOutput } from './ServerOutput';
import { ServerSwitches } from './ServerSwitches';
import { SignInButtons } from './SignInButtons';
import { SignInStatusLine } from './SignInStatusLine';
import { SandboxBadge } from '../sandbox/SandboxBadge';
import { SandboxRefusals } from '../sandbox/SandboxRefusals';
import { healthOf } from './server-health';
import { StateBadge } from './StateBadge';
import { LookalikeWarning } from '../../ui/LookalikeWarning';

interface Props {
  readonly server: ServerSummary;
  /** Its registry entry (undefined while loading or when the file is broken: then it cannot be edited). */
  readonly config?: Readonly<Record<string, unknown>> | undefined;
  readonly cost?: { readonly toolTokens: number; readonly instructionTokens: number } | undefined;
  readonly onEdit?: (() => void) | undefined;
}

/**
 * One server in full: its state and what to do about it first, then the actions, its switches,
 * how it is configured, what it said about itself once connected, and its recent output.
 */
export function ServerDetail({ server, config, cost, onEdit }: Props) {
  const id = useId();
  const { state } = server;
  const [showLogs, setShowLogs] = useState(false);
  const [diagnosing, setDiagnosing] = useState(false);
  return (
    <article className="server-detail" aria-labelledby={`${id}-name`}>
      <header className="server-detail__header">
        <h2 className="server-detail__name" id={`${id}-name`}>
          {visibleText(server.name)}
        </h2>
        <span className="server-detail__badges">
          {!server.enabled ? (
            <span className="badge">Disabled</span>
          ) : healthOf(server).kind === 'attention' ? (
            // As in the list: nothing broke, it waits for the person.
            <span className="badge badge--starting">Needs you</span>
          ) : (
            <StateBadge state={state} transport={server.transport} />
          )}
          <SandboxBadge server={server} />
        </span>
      </header>
      <LookalikeWarning problems={server.lookalike} />
      <div className="server-detail__actions" role="group" aria-label={`Actions for ${server.name}`}>
        <ServerRunButtons server={server} />
        {server.transport === 'http' && server.enabled ? <SignInButtons server={server} /> : null}
        {onEdit ? (
          <button type="button" className="button button--with-icon" aria-label={`Edit ${server.name}`} onClick={onEdit}>
            <Pencil aria-hidden="true" size={14} />
            Edit
          </button>
        ) : null}
        <button type="button" className="button" aria-expanded={showLogs} aria-label={`Logs of ${server.name}`} onClick={() => setShowLogs((shown) => !shown)}>
          Logs
        </button>
        {server.enabled ? (
          <button type="button" className="button" aria-expanded={diagnosing} aria-label={`Diagnose ${server.name}`} onClick={() => setDiagnosing((shown) => !shown)}>
            Diagnose
          </button>
        ) : null}
        {config ? <RemoveServer name={server.name} /> : null}
      </div>
      {diagnosing ? <DiagnosePanel name={server.name} /> : null}
      {/* The server's own log messages (notifications/message), searchable. */}
      {showLogs ? <ServerLogs server={server.name} /> : null}
      {state.kind === 'error' && server.enabled ? <ServerErrorMessage server={server} state={state} config={config} /> : null}
      {state.kind === 'restarting' && state.message ? (
        <p className="notice notice--warn" role="status">
          {server.transport === 'http' ? 'Connection lost' : 'The server went away'}: {visibleText(state.message)} Harbor {server.transport === 'http' ? 'reconnects' : 'restarts it'} by itself.
        </p>
      ) : null}
      {server.transport === 'http' ? <SignInStatusLine server={server} /> : null}
      {state.kind === 'ready' && state.recovered ? <CrashNotice server={server.name} recovered={state.recovered} /> : null}
      <StaleListsNotice server={server} />
      {server.sandboxed ? <SandboxRefusals server={server.name} /> : null}
      {server.state.kind === 'ready' ? <ServerToolChanges server={server} /> : null}
      {config ? <ServerSwitches server={server} config={config} /> : null}
      <section className="server-detail__section" aria-labelledby={`${id}-config`}>
        <h3 id={`${id}-config`}>Configuration</h3>
        <ConfigFacts server={server} config={config} />
      </section>
      <section className="server-detail__section" aria-labelledby={`${id}-connection`}>
        <h3 id={`${id}-connection`}>Connection</h3>
        <ConnectionFacts server={server} cost={cost} />
      </section>
      {/* Sections other features add to a server's page (e.g. its log, its sandbox) go here. */}
      {server.transport === 'stdio' && server.enabled && state.kind !== 'error' ? <ServerOutput name={server.name} /> : null}
    </article>
  );
}
