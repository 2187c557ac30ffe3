import { useCallback, useEffect, useRef, useState } from 'react';
import type { ElicitationRequestData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { ElicitationDialog, type ElicitationAction, type PendingElicitation } from './ElicitationDialog';

/** Calls remembered so a chat question can say which tool was running (bounded). */
const REMEMBERED_CALLS = 200;

/**
 * App-wide: a server's questions, one at a time — `elicitation.request`, answered with
 * elicitation.respond. A question that belongs to a chat tool call says which; one the Host ended
 * (answered elsewhere, its request finished, its deadline passed) disappears with
 * `elicitation.resolved`. An answer the Host refuses (it does not fit the server's schema) keeps
 * the dialog open with what is wrong.
 */
export function ElicitationHost() {
  const api = useHarbor();
  const [queue, setQueue] = useState<readonly PendingElicitation[]>([]);
  const [refusals, setRefusals] = useState<ReadonlyMap<string, string>>(new Map());
  const calls = useRef(new Map<string, string>());

  useEffect(() => {
    let live = true;
    const add = (data: ElicitationRequestData) => {
      const during = data.toolCallId ? (calls.current.get(data.toolCallId) ?? 'a tool for the chat') : data.conversationId ? 'a tool for the chat' : undefined;
      const { conversationId: _c, turnId: _t, toolCallId: _tc, ...shown } = data;
      setQueue((q) => (q.some((r) => r.id === data.id) ? q : [...q, { ...shown, ...(during ? { during } : {}) }]));
    };
    const offs = [
      api.on.elicitation.request(add),
      api.on.elicitation.resolved(({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
      api.on.chat.toolCall(({ call }) => {
        if (!call.tool) return;
        calls.current.set(call.id, `“${call.tool}” in the chat`);
        if (calls.current.size > REMEMBERED_CALLS) calls.current.delete(calls.current.keys().next().value!);
      }),
    ];
    // Questions asked before this window connected (or before a reload) are still waiting.
    void api.elicitation.pending({}).then((result) => {
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
    async (request: PendingElicitation, action: ElicitationAction, content?: Record<string, unknown>) => {
      const payload = { id: request.id, action, ...(action === 'accept' && content ? { content } : {}) };
      if (action !== 'accept') setQueue((q) => q.filter((r) => r.id !== request.id));
      const result = await api.elicitation.respond(payload);
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
    <ElicitationDialog
      key={current.id}
      request={current}
      waiting={queue.length - 1}
      {...(refusals.has(current.id) ? { refusal: refusals.get(current.id)! } : {})}
      onAnswer={(action, content) => void answer(current, action, content)}
    />
  );
}
