import type { ServerSummary } from '../../../../preload/contract';
import { useLaunchQuestions } from '../consent/use-launch-questions';
import { NotReadyLine } from './NotReadyLine';

/**
 * The servers of a catalog page that are not ready, one line each (NotReadyLine), in one list:
 * never a box per server on top of the page (issue #31, item 10).
 */
export function NotReady({ servers, noun }: { readonly servers: readonly ServerSummary[]; readonly noun: string }) {
  const waiting = useLaunchQuestions();
  if (servers.length === 0) return null;
  return (
    <ul className="not-ready-list" aria-label="Servers not ready">
      {servers.map((server) => (
        <NotReadyLine key={server.name} server={server} waitingForLaunch={waiting.has(server.name)} noun={noun} />
      ))}
    </ul>
  );
}
