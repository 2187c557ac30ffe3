import { useCallback, useEffect, useState } from 'react';
import type { SamplingRequestData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { SamplingDialog, type SamplingDecision } from './SamplingDialog';

/**
 * App-wide: servers' sampling requests, one review at a time — `sampling.request` (a stage: the
 * request, then the model's answer), answered with sampling.respond, gone with `sampling.resolved`
 * (answered elsewhere, the server gave up, the deadline passed). An edit the Host refuses keeps
 * the dialog open with what is wrong.
 */
export function SamplingHost() {
  const api = useHarbor();
  const [queue, setQueue] = useState<readonly SamplingRequestData[]>([]);
  const [refusals, setRefusals] = useState<ReadonlyMap<string, string>>(new Map());

  useEffect(() => {
    let live = true;
    const add = (data: SamplingRequestData) => setQueue((q) => (q.some((r) => r.id === data.id) ? q : [...q, data]));
    const offs = [api.on.sampling.request(add), api.on.sampling.resolved(({ id }) => setQueue((q) => q.filter((r) => r.id !== id)))];
    // Reviews asked before this window connected (or before a reload) are still waiting.
    void api.sampling.pending({}).then((result) => {
      if (!live || !result.ok) return;
      const now = Date.now();
      for (const data of result.value) if (data.deadline > now) add(data);
    });
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [api]);

  const answer = useCallback(
    async (request: SamplingRequestData, decision: SamplingDecision) => {
      if (decision.action === 'deny') setQueue((q) => q.filter((r) => r.id !== request.id));
      const result = await api.sampling.respond({ id: request.id, ...decision });
      if (!result.ok && result.error.code === 'BAD_REQUEST') {
        setRefusals((m) => new Map(m).set(request.id, result.error.message));
        return;
      }
      setQueue((q) => q.filter((r) => r.id !== request.id));
    },
    [api],
  );

  const current = queue[0];
  if (!current) return null;
  return (
    <SamplingDialog
      key={current.id}
      request={current}
      waiting={queue.length - 1}
      {...(refusals.has(current.id) ? { refusal: refusals.get(current.id)! } : {})}
      onAnswer={(decision) => void answer(current, decision)}
    />
  );
}
