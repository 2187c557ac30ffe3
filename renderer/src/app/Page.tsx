import { ActivityPage } from '../features/activity/ActivityPage';
import { ChatPage } from '../features/chat/ChatPage';
import { GalleryPage } from '../features/gallery/GalleryPage';
import { PromptsPage } from '../features/prompts/PromptsPage';
import { ResourcesPage } from '../features/resources/ResourcesPage';
import { ServersPage } from '../features/servers/ServersPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { TasksPage } from '../features/tasks/TasksPage';
import { ToolsPage } from '../features/tools/ToolsPage';
import type { RouteId } from './routes';

export function Page({ route }: { readonly route: RouteId }) {
  switch (route) {
    case 'chat':
      return <ChatPage />;
    case 'servers':
      return <ServersPage />;
    case 'gallery':
      return <GalleryPage />;
    case 'tools':
      return <ToolsPage />;
    case 'resources':
      return <ResourcesPage />;
    case 'prompts':
      return <PromptsPage />;
    case 'tasks':
      return <TasksPage />;
    case 'activity':
      return <ActivityPage />;
    case 'settings':
      return <SettingsPage />;
  }
}
