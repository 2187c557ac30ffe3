/**
 * Whole tool results behind the previews a long conversation opens with (conversations.open with
 * `resultsOver` sends a large result as a short preview, `result.omitted`): fetched once per call
 * when something needs it whole — the card opened, its app, images shown on the closed card.
 */
import { createContext, useContext, useEffect, useState } from 'react';
import type { ChatToolCall, ChatToolResult, HarborApi } from '../../../../preload/contract';
import { fromResult, type LoadState } from '../../lib/load-state';

/** Results whose JSON is longer than this come as previews when a conversation is opened. */
export const RESULTS_OVER = 16_384;

/** A call's whole result, by its turn and call id, in the conversation shown. */
export type WholeResults = (turnId: string, callId: string) => Promise<LoadState<ChatToolResult>>;

/** One conversation's whole results, each asked for once (a failed fetch is asked again next time). */
export function wholeResultsOf(api: HarborApi, conversationId: string): WholeResults {
  const asked = new Map<string, Promise<LoadState<ChatToolResult>>>();
  return (turnId, callId) => {
    const key = `${turnId}\n${callId}`;
    let answer = asked.get(key);
    if (!answer) {
      answer = api.conversations.result({ id: conversationId, turnId, callId }).then(fromResult);
      asked.set(key, answer);
      void answer.then((state) => state.status === 'error' && asked.delete(key));
    }
    return answer;
  };
}

export const WholeResultsContext = createContext<WholeResults | undefined>(undefined);

const NOTHING_TO_ASK: LoadState<ChatToolResult> = {
  status: 'error',
  error: { code: 'INTERNAL', message: 'This result was too large to send with the conversation, and this view cannot fetch it: open the conversation in Chat.' },
};

/**
 * The call's result whole: the result itself when it came whole, else (once `wanted`) fetched from
 * the Host. Undefined when the call has no result.
 */
export function useWholeResult(call: ChatToolCall, turnId: string | undefined, wanted: boolean): LoadState<ChatToolResult> | undefined {
  const fetchWhole = useContext(WholeResultsContext);
  const result = call.result;
  const cut = result?.omitted !== undefined;
  const [fetched, setFetched] = useState<{ readonly of: ChatToolResult; readonly state: LoadState<ChatToolResult> }>();
  useEffect(() => {
    if (!cut || !wanted || !fetchWhole || turnId === undefined || !result) return;
    let current = true;
    void fetchWhole(turnId, call.id).then((state) => current && setFetched({ of: result, state }));
    return () => {
      current = false;
    };
  }, [cut, wanted, fetchWhole, turnId, call.id, result]);
  if (!result) return undefined;
  if (!cut) return { status: 'ready', value: result };
  if (!fetchWhole || turnId === undefined) return NOTHING_TO_ASK;
  return fetched?.of === result ? fetched.state : { status: 'loading' };
}
