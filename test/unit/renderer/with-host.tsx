/**
 * Renders a page or component as the app does (inside ServicesContext), over any Transport:
 * the tests give a ContractTransport (test/helpers/contract-transport.ts), which holds every
 * request, answer and event to the contract.
 */
import { useMemo, type ReactNode } from 'react';
import { buildApi, type Transport } from '../../../preload/contract';
import { ServicesContext } from '../../../renderer/src/app/services';
import { ActivityLog } from '../../../renderer/src/features/activity/activity-log';

export function WithHost({ transport, children }: { readonly transport: Transport; readonly children: ReactNode }) {
  const services = useMemo(() => {
    const api = buildApi(transport);
    return { api, activity: new ActivityLog(api) };
  }, [transport]);
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}
