import { useState } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { ServerLogs } from '../logs/ServerLogs';
import { Switch } from '../../ui/Switch';
import { SandboxBadge } from '../sandbox/SandboxBadge';
import { SandboxRefusals } from '../sandbox/SandboxRefusals';
import { hintFor } from './error-hints';
import { TRUSTED_HINT } from './ServerForm';
import { RemoveServer } from './RemoveServer';
import { ServerActions } from './ServerActions';
import { SignInButtons } from './SignInButtons';
import { StateBadge } from './StateBadge';

interface Props {
  readonly server: ServerSummary;
  /** The server's registry entry (undefined while loading or when the file is broken). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Tokens its enabled tools and instructions take in the model's context, when known. */
  readonly cost?: { readonly toolTokens: number; readonly instructionTokens: number };
  readonly onEdit?: () => void;
}

export function ServerCard({ server, config, cost, onEdit }: Props) {
  const api = useHarbor();
  const { state } = server;
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [saving, setSaving] = useState(false);
  const [showLogs, setShowLogs] = useState(false);
  // Shown at once while the change is saved, until a newer summary of the server arrives.
  const [optimistic, setOptimistic] = useState<{ readonly key: 'enabled' | 'trusted'; readonly value: boolean; readonly seen: ServerSummary } | undefined>();
  const shown = (key: 'enabled' | 'trusted') => (optimistic?.key === key && optimistic.seen === server ? optimistic.value : server[key]);
  const hint = state.kind === 'error' ? hintFor(server, state) : undefined;

  /** The person's opt-out where the sandbox cannot run: the server's "sandbox" goes, then it starts. */
  const runUnsandboxed = async () => {
    if (!config) return;
    setSaving(true);
    setError(undefined);
    const { sandbox: _sandbox, ...rest } = config;
    const result = await api.servers.update({ name: server.name, config: rest });
    if (result.ok) void api.servers.start({ name: server.name });
    setSaving(false);
    if (!result.ok) setError(asErrorData(result.error));
  };

  /** Flips enabled/trusted in the registry entry (the server keeps running for trust). */
  const toggle = async (key: 'enabled' | 'trusted', on: boolean) => {
    if (!config) return;
    setSaving(true);
    setError(undefined);
    setOptimistic({ key, value: on, seen: server });
    const next: Record<string, unknown> = { ...config };
    if (key === 'enabled' ? on : !on) delete next[key];
    else next[key] = on;
    const result = await api.servers.update({ name: server.name, config: next });
    if (result.ok && key === 'enabled' && on) void api.servers.start({ name: server.name });
    setSaving(false);
    if (!result.ok) {
      setOptimistic(undefined);
      setError(asErrorData(result.error));
    }
  };

  return (
    <article className={`card server-card${server.enabled ? '' : ' server-card--disabled'}`} aria-labelledby={`server-${server.name}`}>
      <header className="card__header">
        <h2 className="card__title" id={`server-${server.name}`}>
          {server.name}
        </h2>
        <span className="server-card__badges">
          {server.enabled ? <StateBadge state={state} /> : <span className="badge">Disabled</span>}
          <SandboxBadge server={server} />
        </span>
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
              {server.era ? ` (${server.era === 'modern' ? 'modern, stateless' : 'legacy'})` : ''}
            </dd>
          </>
        ) : null}
        {server.serverInfo ? (
          <>
            <dt>Reports itself as</dt>
            <dd>
              {server.serverInfo.name} {server.serverInfo.version}
            </dd>
          </>
        ) : null}
        {state.kind === 'ready' ? (
          <>
            <dt>Offers</dt>
            <dd>{describeCounts(server.counts)}</dd>
          </>
        ) : null}
        {state.kind === 'ready' && cost ? (
          <>
            <dt>Context cost</dt>
            <dd>
              ~{(cost.toolTokens + cost.instructionTokens).toLocaleString()} tokens
              <span className="muted"> (tool definitions {cost.toolTokens.toLocaleString()}, instructions {cost.instructionTokens.toLocaleString()})</span>
            </dd>
          </>
        ) : null}
      </dl>
      {state.kind === 'error' && server.enabled ? (
        <div className="notice notice--error">
          <p className="notice__message">{state.message}</p>
          <p className="notice__code">{state.code}</p>
          {hint ? <p className="server-card__hint">{hint.text}</p> : null}
          {hint?.action === 'runUnsandboxed' && config ? (
            <button type="button" className="button" disabled={saving} onClick={() => void runUnsandboxed()}>
              Run without the sandbox
            </button>
          ) : null}
          {state.stderrTail ? (
            <details>
              <summary>Server output (last lines)</summary>
              <pre>{state.stderrTail}</pre>
            </details>
          ) : null}
        </div>
      ) : null}
      {server.sandboxed ? <SandboxRefusals server={server.name} /> : null}
      {config ? (
        <div className="server-card__switches">
          <Switch label="Enabled" accessibleName={`${server.name} enabled`} checked={shown('enabled')} disabled={saving} onChange={(on) => void toggle('enabled', on)} />
          <Switch label="Trusted" accessibleName={`Trust ${server.name}`} checked={shown('trusted')} disabled={saving} onChange={(on) => void toggle('trusted', on)} hint={TRUSTED_HINT} />
        </div>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <div className="actions">
        <ServerActions server={server} offerLaunch={hint?.action === 'allowLaunch'} />
        {server.transport === 'http' && server.enabled ? <SignInButtons name={server.name} /> : null}
        {onEdit ? (
          <button type="button" className="button" aria-label={`Edit ${server.name}`} onClick={onEdit}>
            Edit
          </button>
        ) : null}
        <button type="button" className="button" aria-expanded={showLogs} aria-label={`Logs of ${server.name}`} onClick={() => setShowLogs((shown) => !shown)}>
          Logs
        </button>
        {config ? <RemoveServer name={server.name} /> : null}
      </div>
      {showLogs ? <ServerLogs server={server.name} /> : null}
    </article>
  );
}

function describeCounts(counts: ServerSummary['counts']): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(counts.tools, 'tool'), plural(counts.resources + counts.resourceTemplates, 'resource'), plural(counts.prompts, 'prompt')].join(', ');
}
