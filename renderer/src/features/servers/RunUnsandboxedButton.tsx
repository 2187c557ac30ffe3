import { useState } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

interface Props {
  readonly server: ServerSummary;
  /** The server's registry entry: its "sandbox" goes, the rest is written back as it is. */
  readonly config: Readonly<Record<string, unknown>>;
}

/**
 * The person's opt-out where the sandbox cannot run on this machine: the server's "sandbox" entry
 * goes, then it starts with the person's rights.
 */
export function RunUnsandboxedButton({ server, config }: Props) {
  const api = useHarbor();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    const { sandbox: _sandbox, ...rest } = config;
    const result = await api.servers.update({ name: server.name, config: rest });
    if (result.ok) void api.servers.start({ name: server.name });
    setBusy(false);
    if (!result.ok) setError(asErrorData(result.error));
  };
  return (
    <>
      <button type="button" className="button" disabled={busy} onClick={() => void run()}>
        Run without the sandbox
      </button>
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
