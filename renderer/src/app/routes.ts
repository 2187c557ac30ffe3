/** The product's pages, in navigation order. Hash routes (`#/servers`) work in Electron and web alike. */
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

export function routeFromHash(hash: string): RouteId {
  const id = hash.startsWith('#/') ? hash.slice(2).split(/[/?]/, 1)[0] : undefined;
  return ROUTES.find((r) => r.id === id)?.id ?? DEFAULT_ROUTE;
}

export function hrefFor(id: RouteId): string {
  return `#/${id}`;
}
