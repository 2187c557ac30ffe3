import { lazy, Suspense, useEffect, useRef, type ComponentType } from 'react';
import type { RouteId } from './routes';

/**
 * Each page is its own chunk, loaded the first time it is opened: the first paint loads only the
 * shell and the page it shows, not every page's code (markdown, forms, editors) the person may
 * never open.
 */
const PAGES: Record<RouteId, ComponentType> = {
  chat: lazy(() => import('../features/chat/ChatPage').then((m) => ({ default: m.ChatPage }))),
  servers: lazy(() => import('../features/servers/ServersPage').then((m) => ({ default: m.ServersPage }))),
  gallery: lazy(() => import('../features/gallery/GalleryPage').then((m) => ({ default: m.GalleryPage }))),
  tools: lazy(() => import('../features/tools/ToolsPage').then((m) => ({ default: m.ToolsPage }))),
  resources: lazy(() => import('../features/resources/ResourcesPage').then((m) => ({ default: m.ResourcesPage }))),
  prompts: lazy(() => import('../features/prompts/PromptsPage').then((m) => ({ default: m.PromptsPage }))),
  skills: lazy(() => import('../features/skills/SkillsPage').then((m) => ({ default: m.SkillsPage }))),
  tasks: lazy(() => import('../features/tasks/TasksPage').then((m) => ({ default: m.TasksPage }))),
  activity: lazy(() => import('../features/activity/ActivityPage').then((m) => ({ default: m.ActivityPage }))),
  settings: lazy(() => import('../features/settings/SettingsPage').then((m) => ({ default: m.SettingsPage }))),
};

export function Page({ route }: { readonly route: RouteId }) {
  const Current = PAGES[route];
  return (
    // No fallback text: a local chunk loads within a frame or two, and a flash of "Loading…" would be noise.
    <Suspense fallback={null}>
      <Current />
      <FocusTitleOnNavigation route={route} />
    </Suspense>
  );
}

/**
 * After a navigation (not the first paint), move focus to the new page's title. It sits inside the
 * page's Suspense boundary so its effect runs once the new page (whose chunk may still be loading
 * when the route changes) is on screen, not while the old page's title is still in the document.
 */
function FocusTitleOnNavigation({ route }: { readonly route: RouteId }) {
  const previous = useRef(route);
  useEffect(() => {
    if (previous.current === route) return;
    previous.current = route;
    document.getElementById('page-title')?.focus();
  }, [route]);
  return null;
}
