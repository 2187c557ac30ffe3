import { ActivityPage } from '../features/traffic/ActivityPage';
import { CatalogPage } from '../features/catalog/CatalogPage';
import { ChatPage } from '../features/chat/ChatPage';
import { ServersPage } from '../features/servers/ServersPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import type { RouteId } from './routes';

export function Page({ route }: { readonly route: RouteId }) {
  switch (route) {
    case 'chat':
      return <ChatPage />;
    case 'servers':
      return <ServersPage />;
    case 'tools':
    case 'resources':
    case 'prompts':
      return <CatalogPage kind={route} />;
    case 'activity':
      return <ActivityPage />;
    case 'settings':
      return <SettingsPage />;
  }
}
