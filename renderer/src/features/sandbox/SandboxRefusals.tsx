import { useState } from 'react';
import type { HarborErrorData, SandboxRefusalData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { visibleText } from '../../lib/visible-text';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useSandboxRefusals } from './use-sandbox';
import './sandbox.css';

const WHAT: Record<SandboxRefusalData['kind'], string> = { write: 'Writing to', read: 'Reading', network: 'A connection to' };

/**
 * What the sandbox refused a server, newest first, each with the one change that would allow it
 * ("Allow writing to /x", "Allow example.com") and the registry rule that says the same in
 * harbor.json (`"sandbox": { "allowWrite": ["/x"] }`). Allowing edits the server's sandbox rules and
 * restarts it with them. Paths and hosts are the server's words: shown as text, escaped.
 */
export function SandboxRefusals({ server }: { readonly server: string }) {
  const api = useHarbor();
  const [refusals, reload] = useSandboxRefusals(server);
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  if (refusals.length === 0) return null;

  const allow = async (refusal: SandboxRefusalData) => {
    if (!refusal.suggestion) return;
    const key = `${refusal.kind}:${refusal.target}`;
    setBusy(key);
    setError(undefined);
    const result = await api.sandbox.allow({ server, change: refusal.suggestion.change });
    setBusy(undefined);
    if (!result.ok) setError(asErrorData(result.error));
    reload();
  };

  return (
    <section className="sandbox-refusals notice notice--warn" aria-label={`What the sandbox refused ${server}`}>
      <p className="notice__message">The sandbox refused:</p>
      <ul>
        {[...refusals].reverse().map((refusal) => {
          const key = `${refusal.kind}:${refusal.target}`;
          return (
            <li key={key}>
              <span>
                {WHAT[refusal.kind]} <code>{visibleText(refusal.target)}</code>
                {refusal.count > 1 ? <span className="muted"> ({refusal.count} times)</span> : null}
              </span>
              {refusal.suggestion ? (
                <button type="button" className="button button--small" disabled={busy !== undefined} onClick={() => void allow(refusal)}>
                  {busy === key ? 'Allowing…' : capitalize(visibleText(refusal.suggestion.label))}
                </button>
              ) : (
                <span className="muted">{refusal.kind === 'read' ? 'Always hidden from sandboxed servers.' : 'Cannot be allowed from here.'}</span>
              )}
              {refusal.suggestion ? (
                <span className="sandbox-refusals__rule muted">
                  In harbor.json: <code>{visibleText(refusal.suggestion.rule)}</code>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}

function capitalize(text: string): string {
  return text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text;
}
