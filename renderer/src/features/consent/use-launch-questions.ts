import { useMemo } from 'react';
import { useConsentQueue } from './consent-queue';

/** The names of the servers whose launch question waits for the person now (the sheet, or its banner). */
export function useLaunchQuestions(): ReadonlySet<string> {
  const { requests } = useConsentQueue();
  return useMemo(() => new Set(requests.filter((r) => r.kind === 'launch').map((r) => r.server)), [requests]);
}
