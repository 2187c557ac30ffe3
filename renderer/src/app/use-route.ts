import { useSyncExternalStore } from 'react';
import { routeFromHash, type RouteId } from './routes';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): RouteId {
  return useSyncExternalStore(subscribe, () => routeFromHash(window.location.hash));
}
