import { useState } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Switch } from '../../ui/Switch';

type Key = 'enabled' | 'trusted';

interface Props {
  readonly server: ServerSummary;
  /** The server's registry entry: a switch writes it back with one field changed. */
  readonly config: Readonly<Record<string, unknown>>;
}

/**
 * Enabled and Trusted, flipped in the registry entry. Turning a server on starts it (the Host does,
 * as for every edit); trust changes keep it running.
 */
export function ServerSwitches({ server, config }: Props) {
  const api = useHarbor();
  const [error, setError] = useState<HarborErrorData | undefined>();
  const [saving, setSaving] = useState(false);
  // Shown at once while the change is saved, until a newer summary of the server arrives.
  const [optimistic, setOptimistic] = useState<{ readonly key: Key; readonly value: boolean; readonly seen: ServerSummary } | undefined>();
  const shown = (key: Key) => (optimistic?.key === key && optimistic.seen === server ? optimistic.value : server[key]);

  const toggle = async (key: Key, on: boolean) => {
    setSaving(true);
    setError(undefined);
    setOptimistic({ key, value: on, seen: server });
    const next: Record<string, unknown> = { ...config };
    if (key === 'enabled' ? on : !on) delete next[key];
    else next[key] = on;
    const result = await api.servers.update({ name: server.name, config: next });
    setSaving(false);
    if (!result.ok) {
      setOptimistic(undefined);
      setError(asErrorData(result.error));
    }
  };

  return (
    <div className="server-detail__switches">
      <Switch label="Enabled" accessibleName={`${server.name} enabled`} checked={shown('enabled')} disabled={saving} onChange={(on) => void toggle('enabled', on)} hint="Harbor starts it and offers its tools." />
      <Switch label="Trusted" accessibleName={`Trust ${server.name}`} checked={shown('trusted')} disabled={saving} onChange={(on) => void toggle('trusted', on)} hint="Starts, and runs its read-only tools, without asking. Trust only code you would run yourself." />
      {error ? <ErrorMessage error={error} /> : null}
    </div>
  );
}
