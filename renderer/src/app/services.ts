import { createContext, useContext } from 'react';
import type { HarborApi } from '../../../preload/contract';
import type { ActivityLog } from '../features/activity/activity-log';

/** What every page may use: the typed Host API and the app-wide activity log. */
export interface Services {
  readonly api: HarborApi;
  readonly activity: ActivityLog;
}

export const ServicesContext = createContext<Services | null>(null);

function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('ServicesContext is missing: render pages inside <App>.');
  return services;
}

export function useHarbor(): HarborApi {
  return useServices().api;
}

export function useActivity(): ActivityLog {
  return useServices().activity;
}
