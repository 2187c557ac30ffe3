import { ConsentDialog } from './ConsentDialog';
import { inChat } from './consent-words';
import { useConsentQueue } from './consent-queue';

/**
 * App-wide: shows the consent questions asked outside a chat one at a time, as a dialog, whatever
 * page is open. A chat's own calls are asked in their conversation's transcript (`ChatApprovals`).
 */
export function ConsentHost() {
  const { requests, decide } = useConsentQueue();
  const dialogs = requests.filter((request) => !inChat(request));
  const current = dialogs[0];
  if (!current) return null;
  return <ConsentDialog key={current.id} request={current} waiting={dialogs.length - 1} onDecide={(decision) => decide(current.id, decision)} />;
}
