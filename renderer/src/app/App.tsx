import { useMemo } from 'react';
import type { Bridge } from '../bridge/connect';
import type { ActivityLog } from '../features/activity/activity-log';
import { BundleHost } from '../features/bundles/BundleHost';
import { ConsentHost } from '../features/consent/ConsentHost';
import { LaunchBanner } from '../features/consent/LaunchBanner';
import { ElicitationHost } from '../features/elicitation/ElicitationHost';
import { PaletteButton, PaletteHost } from '../features/palette/PaletteHost';
import { RegistryBanner } from '../features/servers/RegistryBanner';
import { ServerAlerts } from '../features/servers/ServerAlerts';
import { SamplingHost } from '../features/sampling/SamplingHost';
import { UpdateBanner } from '../features/updates/UpdateBanner';
import { Toasts } from '../ui/Toasts';
import { ConnectionBanner } from './ConnectionBanner';
import { Page } from './Page';
import { ServicesContext } from './services';
import { Sidebar } from './Sidebar';
import { useRoute } from './use-route';

interface Props {
  readonly bridge: Bridge;
  readonly activity: ActivityLog;
}

export function App({ bridge, activity }: Props) {
  const route = useRoute();
  const services = useMemo(() => ({ api: bridge.api, activity }), [bridge.api, activity]);
  return (
    <ServicesContext.Provider value={services}>
      <div className="shell">
        {/* The first stop of Tab: past the navigation to the page. Focus moves in script — the hash is the route. */}
        <a
          className="skip-link"
          href="#main-content"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById('main-content')?.focus();
          }}
        >
          Skip to main content
        </a>
        <Sidebar current={route} footer={(rail) => <PaletteButton rail={rail} />} />
        <div className="shell__main">
          <ConnectionBanner source={bridge} />
          <UpdateBanner />
          <RegistryBanner />
          <LaunchBanner />
          <main id="main-content" className="page" aria-labelledby="page-title" tabIndex={-1}>
            <Page route={route} />
          </main>
        </div>
      </div>
      {/* App-wide: a server's question, a sampling review, a consent request or a bundle to install shows whatever page is open. */}
      <BundleHost />
      <ConsentHost />
      <ElicitationHost />
      <SamplingHost />
      <ServerAlerts />
      <Toasts />
      <PaletteHost />
    </ServicesContext.Provider>
  );
}
