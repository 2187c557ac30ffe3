import { useCallback, useEffect, useRef } from 'react';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';

/** Whether a model is configured (and how to add one), refetched when the configuration changes. */
export function useChatStatus() {
  const api = useHarbor();
  const load = useCallback(() => api.chat.status({}), [api]);
  const [state, reload] = useResult(load);
  useEffect(() => api.on.servers.changed(({ reason }) => reason === 'config' && reload()), [api, reload]);
  return [state, reload] as const;
}

/**
 * The context meter's numbers for the conversation shown (its history counted; none for a new
 * one), refetched when `version` changes (a turn ended) and, at most every half second, when
 * servers or their catalogs change.
 */
export function useChatContext(conversationId: string | undefined, version: string) {
  const api = useHarbor();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` is the reason to measure again
  const load = useCallback(() => api.chat.context(conversationId ? { conversationId } : {}), [api, conversationId, version]);
  const [state, reload] = useResult(load);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    const off = api.on.servers.changed(() => {
      clearTimeout(timer.current);
      timer.current = setTimeout(reload, 500);
    });
    return () => {
      off();
      clearTimeout(timer.current);
    };
  }, [api, reload]);
  return [state, reload] as const;
}
