import type { CommandHandlers } from './dispatch';
import type { Host } from './host/host';

/** Binds every contract command to the Host. Shared by Electron IPC and browser mode. */
export function bindCommands(host: Host): CommandHandlers {
  return {
    'app.info': async () => host.appInfo(),
    'servers.list': async () => host.listServers(),
    'servers.restart': ({ name }) => host.restartServer(name),
    'servers.stop': ({ name }) => host.stopServer(name),
  };
}
