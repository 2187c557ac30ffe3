import type { CommandHandlers } from './dispatch';
import type { Host } from './host/host';

/** Binds every contract command to the Host. Shared by Electron IPC and browser mode. */
export function bindCommands(host: Host): CommandHandlers {
  return {
    'app.info': async () => host.appInfo(),
    'servers.list': async () => host.listServers(),
    'servers.restart': ({ name }) => host.restartServer(name),
    'servers.stop': ({ name }) => host.stopServer(name),
    'consent.respond': async ({ id, decision }) => ({ accepted: host.consent.respond(id, decision) }),
    'consent.list': async () => host.consent.decisions(),
    'consent.revoke': async ({ server, tool }) => ({ removed: host.consent.revoke(server, tool) }),
    'chat.status': () => host.chat.status(),
    'chat.send': async ({ conversationId, text }) => {
      const turn = await host.chat.send({ text, ...(conversationId ? { conversationId } : {}) });
      return { conversationId: turn.conversationId, turnId: turn.turnId };
    },
    'chat.stop': async ({ conversationId }) => ({ stopped: host.chat.stop(conversationId) }),
    'chat.answerElicitation': async ({ id, action, content }) => ({ accepted: host.chat.answerElicitation(id, action, content) }),
    'conversations.list': async () => host.chat.list(),
    'conversations.open': async ({ id }) => host.chat.open(id),
    'conversations.rename': async ({ id, title }) => host.chat.rename(id, title),
    'conversations.delete': async ({ id }) => ({ deleted: host.chat.delete(id) }),
    'conversations.export': async ({ id, format }) => host.chat.export(id, format),
  };
}
