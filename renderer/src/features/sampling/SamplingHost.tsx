import { useMemo } from 'react';
import type { SamplingRequestData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { useQuestionQueue, type QuestionFeed } from '../../lib/use-question-queue';
import { SamplingDialog } from './SamplingDialog';

/**
 * App-wide: servers' sampling requests, one review at a time — `sampling.request` (a stage: the
 * request, then the model's answer), answered with sampling.respond, gone with `sampling.resolved`
 * (answered elsewhere, the server gave up, the deadline passed). An edit the Host refuses keeps
 * the dialog open with what is wrong.
 */
export function SamplingHost() {
  const api = useHarbor();
  const feed = useMemo<QuestionFeed<SamplingRequestData>>(
    () => ({
      follow: (add, remove) => [api.on.sampling.request(add), api.on.sampling.resolved(({ id }) => remove(id))],
      pending: () => api.sampling.pending({}),
    }),
    [api],
  );
  const { current, waiting, refusal, answer } = useQuestionQueue(feed);
  if (!current) return null;
  return (
    <SamplingDialog
      key={current.id}
      request={current}
      waiting={waiting}
      {...(refusal ? { refusal } : {})}
      onAnswer={(decision) => void answer(current.id, () => api.sampling.respond({ id: current.id, ...decision }), decision.action === 'deny')}
    />
  );
}
