import type { ServerSummary } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { visibleText } from '../../lib/visible-text';
import { launchSheet } from '../consent/launch-sheet-store';
import { useServerAction } from '../servers/ServerActions';
import { notReadyWords } from './not-ready-words';

interface Props {
  readonly server: ServerSummary;
  /** Its launch question waits for the person (the sheet or its banner). */
  readonly waitingForLaunch: boolean;
  /** "tools", "resources", "prompts". */
  readonly noun: string;
}

/**
 * One server that is not ready, in one line of a catalog page: its name, its state, why (its real
 * error, or that it waits for permission) and one small action — bring its launch question back,
 * or start it — beside a link to its details. Never started behind the person's back.
 */
export function NotReadyLine({ server, waitingForLaunch, noun }: Props) {
  const { busy, error, run } = useServerAction(server);
  const words = notReadyWords(server, waitingForLaunch, noun);
  const name = visibleText(server.name);
  const why = visibleText(error ? `${words.why} ${error.message}` : words.why);
  return (
    <li className="not-ready-line">
      <strong className="not-ready-line__name">{name}</strong>
      <span className={`badge badge--${words.tone}`}>{words.state}</span>
      <span className="not-ready-line__why" title={why}>
        {why}
      </span>
      {words.action === 'review' ? (
        <button type="button" className="button button--small" aria-label={`Review the launch of ${name}`} onClick={() => launchSheet.open()}>
          Review
        </button>
      ) : words.action === 'start' && server.enabled ? (
        <button type="button" className="button button--small" aria-label={`Start ${name}`} disabled={busy !== undefined} onClick={() => void run('start')}>
          {busy ? 'Starting…' : 'Start'}
        </button>
      ) : null}
      <a className="not-ready-line__link" href={hrefFor('servers', server.name)} aria-label={`Details of ${name}`}>
        Details
      </a>
    </li>
  );
}
