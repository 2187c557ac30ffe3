import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
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
