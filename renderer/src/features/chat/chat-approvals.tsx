import { createContext, useContext, useMemo } from 'react';
import type { ConsentChoice, ConsentRequest } from '../../../../preload/contract';
import { ConsentCard } from '../consent/ConsentCard';
import { askingCall, inChat } from '../consent/consent-words';
import { useConsentQueue } from '../consent/consent-queue';

/** The open conversation's questions, by the call they are about. */
interface ChatApprovals {
  readonly byCall: ReadonlyMap<string, readonly ConsentRequest[]>;
  /** Questions of this conversation whose call is not in the transcript (an older Host, a call not shown yet). */
  readonly loose: readonly ConsentRequest[];
  readonly decide: (id: string, decision: ConsentChoice) => void;
}

const NONE: ChatApprovals = { byCall: new Map(), loose: [], decide: () => undefined };
export const ChatApprovalsContext = createContext<ChatApprovals>(NONE);

/**
 * The consent questions of one conversation (its id is on each question): shown in its transcript
 * next to the call they are about, and in no other conversation.
 */
export function useChatApprovals(conversationId: string | undefined, callIds: ReadonlySet<string>): ChatApprovals {
  const { requests, decide } = useConsentQueue();
  return useMemo(() => {
    const byCall = new Map<string, ConsentRequest[]>();
    const loose: ConsentRequest[] = [];
    if (conversationId === undefined) return { byCall, loose, decide };
    for (const request of requests) {
      if (!inChat(request) || request.conversationId !== conversationId) continue;
      const callId = askingCall(request);
      if (callId !== undefined && callIds.has(callId)) byCall.set(callId, [...(byCall.get(callId) ?? []), request]);
      else loose.push(request);
    }
    return { byCall, loose, decide };
  }, [requests, decide, conversationId, callIds]);
}

/** The questions about one call, under its card. */
export function CallApprovals({ callId }: { readonly callId: string }) {
  const { byCall, decide } = useContext(ChatApprovalsContext);
  const asked = byCall.get(callId);
  if (!asked) return null;
  return (
    <>
      {asked.map((request) => (
        <ConsentCard key={request.id} request={request} onDecide={(decision) => decide(request.id, decision)} />
      ))}
    </>
  );
}

/** This conversation's questions that have no call in the transcript to sit with: at its end. */
export function LooseApprovals({ approvals }: { readonly approvals: ChatApprovals }) {
  const { loose, decide } = approvals;
  if (loose.length === 0) return null;
  return (
    <div className="chat__approvals">
      {loose.map((request) => (
        <ConsentCard key={request.id} request={request} onDecide={(decision) => decide(request.id, decision)} />
      ))}
    </div>
  );
}
