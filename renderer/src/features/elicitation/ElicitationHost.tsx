import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatElicitationData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { ElicitationDialog, type ElicitationAction, type PendingElicitation } from './ElicitationDialog';

/** Calls remembered so a chat question can say which tool was running (bounded). */
const REMEMBERED_CALLS = 200;

/**
 * App-wide: a server's questions, one at a time, from both doors — `elicitation.request` (a tool
 * run by hand, a resource read) answered with elicitation.respond, and `chat.elicitation` (a tool
 * call of a chat turn) answered with chat.answerElicitation. A question the Host gave up on
 * (resolved elsewhere, its turn ended, its call finished) disappears.
 */
export function ElicitationHost() {
  const api = useHarbor();
  const [queue, setQueue] = useState<readonly (PendingElicitation & { turnId?: string; toolCallId?: string })[]>([]);
  const calls = useRef(new Map<string, string>());

  useEffect(() => {
    let live = true;
    const add = (request: PendingElicitation & { turnId?: string; toolCallId?: string }) =>
      setQueue((q) => (q.some((r) => r.id === request.id) ? q : [...q, request]));
    const addChat = (data: ChatElicitationData) => {
      const during = data.toolCallId ? calls.current.get(data.toolCallId) : undefined;
      add({
        id: data.id,
        source: 'chat',
        server: data.server,
        mode: data.mode,
        message: data.message,
        ...(data.requestedSchema !== undefined ? { requestedSchema: data.requestedSchema } : {}),
        ...(data.url !== undefined ? { url: data.url } : {}),
        deadline: data.deadline,
        during: during ?? 'a tool for the chat',
        turnId: data.turnId,
        ...(data.toolCallId ? { toolCallId: data.toolCallId } : {}),
      });
    };
    const offs = [
      api.on.elicitation.request((data) => add({ ...data, source: 'general' })),
      api.on.elicitation.resolved(({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
      api.on.chat.toolCall(({ call, turnId }) => {
        if (call.tool) {
          calls.current.set(call.id, `“${call.tool}” in the chat`);
          if (calls.current.size > REMEMBERED_CALLS) calls.current.delete(calls.current.keys().next().value!);
        }
        if (call.status === 'done' || call.status === 'error') {
          setQueue((q) => q.filter((r) => !(r.source === 'chat' && r.turnId === turnId && r.toolCallId === call.id)));
        }
      }),
      api.on.chat.elicitation(addChat),
      api.on.chat.done(({ turnId }) => setQueue((q) => q.filter((r) => !(r.source === 'chat' && r.turnId === turnId)))),
    ];
    // Questions asked before this window connected (or before a reload) are still waiting.
    void api.elicitation.pending({}).then((result) => {
      if (!live || !result.ok) return;
      const now = Date.now();
      for (const data of result.value.general) if (data.deadline > now) add({ ...data, source: 'general' });
      for (const data of result.value.chat) if (data.deadline > now) addChat(data);
    });
    return () => {
      live = false;
      for (const off of offs) off();
    };
  }, [api]);

  const answer = useCallback(
    (request: PendingElicitation, action: ElicitationAction, content?: Record<string, unknown>) => {
      setQueue((q) => q.filter((r) => r.id !== request.id));
      const payload = { id: request.id, action, ...(action === 'accept' && content ? { content } : {}) };
      void (request.source === 'chat' ? api.chat.answerElicitation(payload) : api.elicitation.respond(payload));
    },
    [api],
  );

  const current = queue[0];
  if (!current) return null;
  return <ElicitationDialog key={current.id} request={current} waiting={queue.length - 1} onAnswer={(action, content) => answer(current, action, content)} />;
}
