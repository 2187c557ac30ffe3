import { useCallback } from 'react';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';
import { AboutPanel } from './AboutPanel';
import { ConfigProblems } from './ConfigProblems';

export function SettingsPage() {
  const api = useHarbor();
  const load = useCallback(() => api.app.info({}), [api]);
  const [state, reload] = useResult(load);
  return (
    <>
      <PageHeader title="Settings">Where Harbor keeps its configuration, and what it is running.</PageHeader>
      {state.status === 'loading' ? <Loading label="Loading settings…" /> : null}
      {state.status === 'error' ? <ErrorMessage error={state.error} onRetry={reload} /> : null}
      {state.status === 'ready' ? (
        <>
          <AboutPanel info={state.value} />
          <ConfigProblems problems={state.value.configProblems} configPath={state.value.configPath} />
        </>
      ) : null}
    </>
  );
}
