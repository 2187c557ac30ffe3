import type { Host } from '../host/host';
import type { Disposable } from '../host/lifecycle';
import type { CliOutput } from './output';

/** `--allow-sampling`, for the commands during which a server may ask the model. */
export const SAMPLING_OPTIONS = { 'allow-sampling': { type: 'boolean' } } as const;

/**
 * The CLI has no dialog to review a server's sampling request: without --allow-sampling a server
 * set to "ask" is declined, with it this run's requests are approved. Either way the person reads
 * on stderr what happened, so a declined request is never a silent failure.
 */
export function noteSampling(out: CliOutput, host: Host, allowed: boolean): Disposable {
  if (allowed) host.sampling.approveForThisRun();
  return host.events.onEvent('sampling.exchange', (exchange) => {
    const server = JSON.stringify(exchange.server);
    switch (exchange.outcome) {
      case 'sent':
        out.info(`${server} asked the model (${exchange.model ?? 'unknown'}); its answer (${exchange.answerChars ?? 0} characters) was sent back${allowed ? ' (--allow-sampling)' : ''}.`);
        break;
      case 'declined':
        out.info(`declined a sampling request of ${server}: run again with --allow-sampling to let the model answer it.`);
        break;
      default:
        out.info(`a sampling request of ${server} was not answered: ${exchange.reason ?? exchange.outcome}`);
    }
  });
}
