import { useCallback, useEffect } from 'react';
import { useHarbor } from '../../app/services';
import { useResult } from '../../lib/use-result';

/** The registry (each server's configuration), refetched when a server's configuration changes. */
export function useRegistry() {
  const api = useHarbor();
  const load = useCallback(() => api.registry.get({}), [api]);
  const [state, reload] = useResult(load);
  useEffect(
    () =>
      api.on.servers.changed((event) => {
        if (event.reason === 'config' || event.reason === 'removed') reload();
      }),
    [api, reload],
  );
  return [state, reload] as const;
}

/** Which keychain secrets exist (names only); undefined while loading or when the keychain cannot be reached. */
export function useSecretNames() {
  const api = useHarbor();
  const load = useCallback(() => api.secrets.list({}), [api]);
  return useResult(load);
}

/** What each ready server's tool definitions cost in the model's context (from the chat's token accounting). */
export function useToolCosts() {
  const api = useHarbor();
  const load = useCallback(() => api.chat.context({}), [api]);
  const [state, reload] = useResult(load);
  useEffect(
    () =>
      api.on.servers.changed((event) => {
        if (event.reason === 'catalog' || event.reason === 'config' || (event.reason === 'state' && event.summary?.state.kind === 'ready')) reload();
      }),
    [api, reload],
  );
  const costs = new Map<string, { toolTokens: number; instructionTokens: number }>();
  if (state.status === 'ready') for (const s of state.value.servers) costs.set(s.name, { toolTokens: s.toolTokens, instructionTokens: s.instructionTokens });
  return costs;
}
