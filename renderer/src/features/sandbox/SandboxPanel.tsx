import { useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { Switch } from '../../ui/Switch';
import { describeSandboxStatus } from './describe-status';
import { useSandboxStatus } from './use-sandbox';
import './sandbox.css';

/** Settings: what this machine's sandbox can do, and whether installed servers are sandboxed. */
export function SandboxPanel() {
  const api = useHarbor();
  const [status, reload] = useSandboxStatus();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<HarborErrorData | undefined>();

  const setInstallDefault = async (sandbox: boolean) => {
    setSaving(true);
    setError(undefined);
    const result = await api.sandbox.setInstallDefault({ sandbox });
    setSaving(false);
    if (!result.ok) setError(asErrorData(result.error));
    reload();
  };

  return (
    <section className="panel" aria-labelledby="settings-sandbox">
      <h2 id="settings-sandbox">Sandbox</h2>
      {status.status === 'loading' ? <Loading label="Checking the sandbox…" /> : null}
      {status.status === 'error' ? <ErrorMessage error={status.error} onRetry={reload} /> : null}
      {status.status === 'ready' ? (
        <>
          <p className={status.value.available ? undefined : 'notice notice--warn'} role="status">
            {describeSandboxStatus(status.value)}
          </p>
          <Switch
            label="Sandbox servers installed from bundles and the gallery"
            checked={status.value.sandboxInstalled}
            disabled={saving}
            onChange={(on) => void setInstallDefault(on)}
            hint={
              status.value.available
                ? 'They can write only to their own temporary folder and reach no network until you allow it (each server’s Sandbox section).'
                : 'Not on this machine: without a sandbox to run in, installed servers run unsandboxed, with your rights.'
            }
          />
        </>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </section>
  );
}
