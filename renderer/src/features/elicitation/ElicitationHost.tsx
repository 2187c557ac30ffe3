import { useEffect, useMemo, useRef } from 'react';
import type { ElicitationRequestData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { useQuestionQueue, type QuestionFeed } from '../../lib/use-question-queue';
import { ElicitationDialog, type PendingElicitation } from './ElicitationDialog';

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
  const calls = useRef(new Map<string, string>());

  useEffect(
    () =>
      api.on.chat.toolCall(({ call }) => {
        if (!call.tool) return;
        calls.current.set(call.id, `“${call.tool}” in the chat`);
        if (calls.current.size > REMEMBERED_CALLS) calls.current.delete(calls.current.keys().next().value!);
      }),
    [api],
  );

  const feed = useMemo<QuestionFeed<PendingElicitation>>(() => {
    const shown = (data: ElicitationRequestData): PendingElicitation => {
      const during = data.toolCallId ? (calls.current.get(data.toolCallId) ?? 'a tool for the chat') : data.conversationId ? 'a tool for the chat' : undefined;
      const { conversationId: _c, turnId: _t, toolCallId: _tc, ...rest } = data;
      return { ...rest, ...(during ? { during } : {}) };
    };
    return {
      follow: (add, remove) => [api.on.elicitation.request((data) => add(shown(data))), api.on.elicitation.resolved(({ id }) => remove(id))],
      pending: async () => {
        const result = await api.elicitation.pending({});
        return result.ok ? { ok: true, value: result.value.map(shown) } : result;
      },
    };
  }, [api]);
  const { current, waiting, refusal, answer } = useQuestionQueue(feed);

  if (!current) return null;
  return (
    <ElicitationDialog
      key={current.id}
      request={current}
      waiting={waiting}
      {...(refusal ? { refusal } : {})}
      onAnswer={(action, content) =>
        void answer(current.id, () => api.elicitation.respond({ id: current.id, action, ...(action === 'accept' && content ? { content } : {}) }), action !== 'accept')
      }
    />
  );
}
