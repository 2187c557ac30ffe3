import type { EventPayload } from '../../../../preload/contract';
import { logText } from '../logs/log-filter';

/** Longest log text shown in the Activity list (the server's log view has the whole message). */
const LOG_CHARS = 200;

/** One plain sentence (after the server's name) for a log message it sent. */
export function describeLog(entry: EventPayload<'servers.log'>): string {
  const text = logText(entry.data);
  return `logged (${entry.level}${entry.logger ? `, ${entry.logger}` : ''}): ${text.length > LOG_CHARS ? `${text.slice(0, LOG_CHARS)}…` : text}`;
}

/** One plain sentence (after the server's name) for how its sampling request ended. */
export function describeSampling(exchange: EventPayload<'sampling.exchange'>): string {
  const model = exchange.model ? ` ${exchange.model}` : '';
  switch (exchange.outcome) {
    case 'sent':
      return `asked the model${model} (at most ${exchange.maxTokens} tokens); its answer (${exchange.answerChars ?? 0} characters) was sent back`;
    case 'denied':
      return `asked the model${model}; denied: ${exchange.reason ?? ''}`;
    case 'declined':
      return `asked the model; declined: ${exchange.reason ?? ''}`;
    case 'rateLimited':
      return `asked the model too often: ${exchange.reason ?? ''}`;
    case 'failed':
      return `asked the model${model}; it failed: ${exchange.reason ?? ''}`;
  }
}
