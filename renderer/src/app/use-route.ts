import { useSyncExternalStore } from 'react';
import { detailFromHash, routeFromHash, type RouteId } from './routes';

/**
 * The renderer's one router: the only reader of the address and of its changes (`hashchange`), and
 * the only writer (`navigate`). Pages, the Servers page's selection and Settings' sections all follow
 * the same hash, so Back, deep links and links from elsewhere work for each.
 */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

function useHash(): string {
  return useSyncExternalStore(subscribe, () => window.location.hash);
}

/** The page the address names (Chat for anything else). */
export function useRoute(): RouteId {
  return routeFromHash(useHash());
}

/** What the address names on `page` (`#/servers/<name>` → the name), or undefined. */
export function useRouteDetail(page: RouteId): string | undefined {
  return detailFromHash(useHash(), page);
}

/** Whether the address is `href` now (following the same link again changes nothing). */
export function isCurrent(href: string): boolean {
  return window.location.hash === href;
}

/** Goes to `href` (from ./routes' hrefFor); nothing happens if the address is already there. */
export function navigate(href: string): void {
  if (!isCurrent(href)) window.location.hash = href;
}
