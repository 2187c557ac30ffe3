import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ConsentChoice, ConsentRequest } from '../../preload/contract';
import { disposeAfterTest } from './dispose-after-test';
import type { TestHost } from './host';

/** Answers every question a server asks the Host's person with `answer(request)` (as the CLI's --answer does), for this test; returns the questions asked. */
export function answerWith(t: TestHost, answer: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>): ElicitRequest['params'][] {
  const asked: ElicitRequest['params'][] = [];
  disposeAfterTest(
    t.host.elicitation.respondWith(async (_server, request) => {
      asked.push(request);
      return answer(request);
    }),
  );
  return asked;
}

/**
 * Answers every consent question of the Host with `answer.next` (undefined: leaves it waiting), for
 * this test; returns the questions asked. The test changes `answer.next` between its steps.
 */
export function answerConsent(t: TestHost, answer: { next: ConsentChoice | undefined }): ConsentRequest[] {
  const asked: ConsentRequest[] = [];
  disposeAfterTest(
    t.host.events.onEvent('consent.request', (r) => {
      asked.push(r);
      if (answer.next) t.host.consent.respond(r.id, answer.next);
    }),
  );
  return asked;
}
