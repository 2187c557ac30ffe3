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

/** The conversation shown's whole results, by turn and call id: those seen whole, and fetching the others. */
export interface WholeResults {
  /** The whole result, if it was seen or fetched already. */
  known(turnId: string, callId: string): ChatToolResult | undefined;
  /** A result that came whole (live, or small): a later preview of it needs no fetch. */
  remember(turnId: string, callId: string, result: ChatToolResult): void;
  fetch(turnId: string, callId: string): Promise<LoadState<ChatToolResult>>;
}

/** One conversation's whole results, each asked for once (a failed fetch is asked again next time). */
export function wholeResultsOf(api: HarborApi, conversationId: string): WholeResults {
  const seen = new Map<string, ChatToolResult>();
  const asked = new Map<string, Promise<LoadState<ChatToolResult>>>();
  const keyOf = (turnId: string, callId: string) => `${turnId}\n${callId}`;
  return {
    known: (turnId, callId) => seen.get(keyOf(turnId, callId)),
    remember: (turnId, callId, result) => void seen.set(keyOf(turnId, callId), result),
    fetch: (turnId, callId) => {
      const key = keyOf(turnId, callId);
      let answer = asked.get(key);
      if (!answer) {
        answer = api.conversations.result({ id: conversationId, turnId, callId }).then(fromResult);
        asked.set(key, answer);
        void answer.then((state) => (state.status === 'ready' ? seen.set(key, state.value) : asked.delete(key)));
      }
      return answer;
    },
  };
}

export const WholeResultsContext = createContext<WholeResults | undefined>(undefined);

const NOTHING_TO_ASK: LoadState<ChatToolResult> = {
  status: 'error',
  error: { code: 'INTERNAL', message: 'This result was too large to send with the conversation, and this view cannot fetch it: open the conversation in Chat.' },
};

/**
 * The call's result whole: the result itself when it came whole, else the one seen before (a reload
 * brings a preview of a result the page had whole: an app shown keeps it), else (once `wanted`)
 * fetched from the Host. Undefined when the call has no result.
 */
export function useWholeResult(call: ChatToolCall, turnId: string | undefined, wanted: boolean): LoadState<ChatToolResult> | undefined {
  const results = useContext(WholeResultsContext);
  const result = call.result;
  const cut = result?.omitted !== undefined;
  const known = cut && turnId !== undefined ? results?.known(turnId, call.id) : undefined;
  const [fetched, setFetched] = useState<{ readonly id: string; readonly state: LoadState<ChatToolResult> }>();
  useEffect(() => {
    if (!cut && result && turnId !== undefined) results?.remember(turnId, call.id, result);
  }, [cut, result, results, turnId, call.id]);
  useEffect(() => {
    if (!cut || known || !wanted || !results || turnId === undefined) return;
    let current = true;
    void results.fetch(turnId, call.id).then((state) => current && setFetched({ id: call.id, state }));
    return () => {
      current = false;
    };
  }, [cut, known, wanted, results, turnId, call.id]);
  if (!result) return undefined;
  if (!cut) return { status: 'ready', value: result };
  if (known) return { status: 'ready', value: known };
  if (!results || turnId === undefined) return NOTHING_TO_ASK;
  return fetched?.id === call.id ? fetched.state : { status: 'loading' };
}
