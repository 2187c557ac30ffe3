import { useCallback, useEffect, useId, useState } from 'react';
import type { ConsentPolicyMode, HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { useServers } from '../servers/use-servers';
import { formatDateTime } from '../../lib/time-format';

const MODES: ReadonlyArray<readonly [ConsentPolicyMode | '', string]> = [
  ['', 'Decide by trust and the tool\'s hints (default)'],
  ['ask', 'Ask before every call'],
  ['allow', 'Run without asking'],
  ['deny', 'Never run'],
];

/** How a secret came to belong to a server, in words. */
const SECRET_ORIGINS = { set: 'set for it', granted: 'granted by you', migrated: 'it used it before this version' } as const;

/** What runs without asking: per-server defaults, and the decisions Harbor remembers (revocable). */
export function ConsentPanel() {
  const api = useHarbor();
  const id = useId();
  const [servers] = useServers();
  const loadDecisions = useCallback(() => api.consent.list({}), [api]);
  const [decisions, reloadDecisions] = useResult(loadDecisions);
  const loadPolicies = useCallback(() => api.consent.policies({}), [api]);
  const [policies, reloadPolicies] = useResult(loadPolicies);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [busy, setBusy] = useState(false);

  // Decisions change while this page is open: a dialog answered with "always", a rug pull.
  useEffect(() => {
    const offResolved = api.on.consent.resolved(() => reloadDecisions());
    const offChanged = api.on.consent.changed(() => reloadDecisions());
    return () => {
      offResolved();
      offChanged();
    };
  }, [api, reloadDecisions]);

  const act = async (work: () => Promise<{ ok: boolean; error?: unknown }>) => {
    setBusy(true);
    setError(undefined);
    const result = await work();
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
    reloadDecisions();
    reloadPolicies();
  };

  const policyOf = (server: string, tool = '*') => (policies.status === 'ready' ? policies.value.find((p) => p.server === server && p.tool === tool)?.mode : undefined);
  const toolPolicies = policies.status === 'ready' ? policies.value.filter((p) => p.tool !== '*') : [];

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Approvals</h2>
      <p className="field__hint">
        By default every tool call asks first. A server you mark trusted may run its read-only tools without asking; an untrusted server&apos;s hints are ignored. An approval
        always covers the tool exactly as you saw it: if the server changes the tool, Harbor asks again and shows what changed.
      </p>

      <h3 className="settings-subtitle">Per server</h3>
      {servers.status === 'loading' || policies.status === 'loading' ? <Loading label="Loading…" /> : null}
      {policies.status === 'error' ? <ErrorMessage error={policies.error} /> : null}
      {servers.status === 'ready' && policies.status === 'ready' ? (
        servers.value.length === 0 ? (
          <p className="muted">No servers yet.</p>
        ) : (
          <table className="table settings-table">
            <caption className="visually-hidden">Default approval per server</caption>
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Trusted</th>
                <th scope="col">Tool calls</th>
              </tr>
            </thead>
            <tbody>
              {servers.value.map((s) => (
                <tr key={s.name}>
                  <th scope="row">{s.name}</th>
                  <td>{s.trusted ? 'Yes' : 'No'}</td>
                  <td>
                    <select
                      className="input"
                      aria-label={`Tool calls of ${s.name}`}
                      value={policyOf(s.name) ?? ''}
                      disabled={busy}
                      onChange={(e) => void act(() => api.consent.setPolicy({ server: s.name, tool: '*', mode: (e.target.value || null) as ConsentPolicyMode | null }))}
                    >
                      {MODES.map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {toolPolicies.length > 0 ? (
        <ul className="settings-list" aria-label="Per-tool settings">
          {toolPolicies.map((p) => (
            <li key={`${p.server}/${p.tool}`}>
              <span>
                <strong>{p.server}</strong> <code>{p.tool}</code>: {MODES.find(([m]) => m === p.mode)?.[1]}
              </span>
              <button type="button" className="button button--small" disabled={busy} onClick={() => void act(() => api.consent.setPolicy({ server: p.server, tool: p.tool, mode: null }))}>
                Reset
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      <h3 className="settings-subtitle">Remembered decisions</h3>
      {decisions.status === 'loading' ? <Loading label="Loading decisions…" /> : null}
      {decisions.status === 'error' ? <ErrorMessage error={decisions.error} onRetry={reloadDecisions} /> : null}
      {decisions.status === 'ready' ? (
        decisions.value.approvals.length === 0 && decisions.value.launches.length === 0 && decisions.value.secrets.length === 0 ? (
          <EmptyState title="Nothing remembered">
            <p>When you choose “Always allow” for a tool or a server&apos;s launch, it shows up here.</p>
          </EmptyState>
        ) : (
          <ul className="settings-list" aria-label="Remembered decisions">
            {decisions.value.approvals.map((a) => {
              const change = decisions.value.changes.findLast((c) => c.server === a.server && c.tool === a.tool && c.at > a.createdAt);
              return (
                <li key={`tool/${a.server}/${a.tool}/${a.kind}`}>
                  <span>
                    <strong>{a.server}</strong> <code>{a.tool}</code> — {a.kind === 'always' ? 'always allowed' : 'allowed for the next call'}, since{' '}
                    {formatDateTime(a.createdAt)}
                    {change ? <span className="badge badge--error settings-list__badge">changed since: {change.changed.join(', ')}</span> : null}
                  </span>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Revoke ${a.tool} of ${a.server}`}
                    disabled={busy}
                    onClick={() => void act(() => api.consent.revoke({ server: a.server, tool: a.tool }))}
                  >
                    Revoke
                  </button>
                </li>
              );
            })}
            {decisions.value.launches.map((l) => (
              <li key={`launch/${l.server}`}>
                <span>
                  <strong>{l.server}</strong> may launch <code>{l.commandLine}</code>, since {formatDateTime(l.createdAt)}
                </span>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Revoke every approval of ${l.server}`}
                  disabled={busy}
                  onClick={() => void act(() => api.consent.revoke({ server: l.server }))}
                >
                  Revoke all
                </button>
              </li>
            ))}
            {decisions.value.secrets.map((b) => (
              <li key={`secret/${b.secret}/${b.server}`}>
                <span>
                  <strong>{b.server}</strong> gets the keychain secret <code>{b.secret}</code> — {SECRET_ORIGINS[b.origin]}, since {formatDateTime(b.createdAt)}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}
