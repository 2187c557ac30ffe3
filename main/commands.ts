import type { CommandHandlers } from './dispatch';
import type { Host } from './host/host';

/** Binds every contract command to the Host. Shared by Electron IPC and browser mode. */
export function bindCommands(host: Host): CommandHandlers {
  return {
    'app.info': async () => host.appInfo(),
    'servers.list': async () => host.listServers(),
    'servers.restart': ({ name }) => host.restartServer(name),
    'servers.stop': ({ name }) => host.stopServer(name),
    'servers.start': ({ name }) => host.startServer(name),
    'servers.add': ({ name, config }) => host.addServer(name, config),
    'servers.update': ({ name, config, newName }) => host.updateServer(name, config, newName),
    'servers.remove': async ({ name }) => ({ removed: await host.removeServer(name) }),
    'registry.get': async () => host.registryView(),
    'registry.save': ({ text }) => host.saveRegistryText(text),
    'catalog.get': async ({ name }) => {
      const catalog = await host.catalog(name);
      // Readonly arrays of MCP objects, copied into the contract's plain-data shape.
      return { server: name, tools: [...catalog.tools], resources: [...catalog.resources], resourceTemplates: [...catalog.resourceTemplates], prompts: [...catalog.prompts] };
    },
    'tools.call': async ({ server, tool, arguments: args }) => (await host.callTool(server, tool, args)),
    'resources.read': async ({ server, uri }) => (await host.readResource(server, uri)),
    'prompts.get': async ({ server, name, arguments: args }) => (await host.getPrompt(server, name, args)),
    'completion.complete': ({ server, ref, argument, context }) => host.complete(server, ref, argument, context),
    'traffic.list': async ({ server, afterSeq }) => host.traffic.list({ ...(server ? { server } : {}), ...(afterSeq !== undefined ? { afterSeq } : {}) }),
    'elicitation.respond': async ({ id, action, content }) => ({ accepted: host.appElicitation?.answer(id, action, content) ?? false }),
    'consent.pending': async () => host.consent.pendingRequests(),
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
