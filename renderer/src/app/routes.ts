/**
 * The renderer's addresses, as data: the product's pages and what the hash names under them
 * (`#/servers/<name>`, `#/settings/<section>`). Hash routes work in Electron and web alike. The one
 * place that reads and changes the address is ./use-route.ts.
 */
export const ROUTES = [
  { id: 'chat', label: 'Chat' },
  { id: 'servers', label: 'Servers' },
  { id: 'gallery', label: 'Gallery' },
  { id: 'tools', label: 'Tools' },
  { id: 'resources', label: 'Resources' },
  { id: 'prompts', label: 'Prompts' },
  { id: 'skills', label: 'Skills' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'activity', label: 'Activity' },
  { id: 'settings', label: 'Settings' },
] as const;

export type RouteId = (typeof ROUTES)[number]['id'];

export const DEFAULT_ROUTE: RouteId = 'chat';

/** `#/<page>[/<detail>]`: the page's id and the (still encoded) detail, or undefined for another hash. */
function segments(hash: string): [string, string | undefined] | undefined {
  const match = /^#\/([^/?]*)(?:\/([^/?]+))?/.exec(hash);
  return match ? [match[1]!, match[2]] : undefined;
}

export function routeFromHash(hash: string): RouteId {
  const id = segments(hash)?.[0];
  return ROUTES.find((r) => r.id === id)?.id ?? DEFAULT_ROUTE;
}

/** What the hash names under `page` (a server's name, a settings section), decoded; undefined if nothing or another page. */
export function detailFromHash(hash: string, page: RouteId): string | undefined {
  const [id, detail] = segments(hash) ?? [];
  if (id !== page || detail === undefined) return undefined;
  try {
    return decodeURIComponent(detail);
  } catch {
    return undefined; // a malformed escape names nothing: the plain page shows
  }
}

/** The address of a page, or of one thing on it (a server, a settings section). */
export function hrefFor(id: RouteId, detail?: string): string {
  return detail === undefined ? `#/${id}` : `#/${id}/${encodeURIComponent(detail)}`;
}
