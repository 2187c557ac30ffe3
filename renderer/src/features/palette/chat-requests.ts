import { useEffect, useRef } from 'react';
import { hrefFor } from '../../app/routes';
import { navigate } from '../../app/use-route';

/** What the palette and the shortcuts ask of the Chat page. */
export type ChatRequest = { readonly kind: 'new' } | { readonly kind: 'open'; readonly id: string };

let handler: ((request: ChatRequest) => void) | undefined;
/** A request made while the Chat page was not open: it takes it once it has mounted. */
let waiting: ChatRequest | undefined;

/**
 * Opens the Chat page on a new conversation or on one of the list. The open page's controller
 * does it at once; otherwise the request waits for the page to mount (after it reopened the last
 * conversation, which this then replaces).
 */
export function requestChat(request: ChatRequest): void {
  if (handler) handler(request);
  else waiting = request;
  navigate(hrefFor('chat'));
}

/** The Chat page's side: `take` runs each request while the page is mounted. */
export function useChatRequests(take: (request: ChatRequest) => void): void {
  const latest = useRef(take);
  useEffect(() => {
    latest.current = take;
  }, [take]);
  useEffect(() => {
    const mine = (request: ChatRequest) => latest.current(request);
    handler = mine;
    if (waiting) {
      const request = waiting;
      waiting = undefined;
      mine(request);
    }
    return () => {
      if (handler === mine) handler = undefined;
    };
  }, []);
}
