import type { UpdateStatus } from '../preload/contract';
import type { CommandHandlers } from './dispatch';
import type { Host } from './host/host';

function updatesUnsupported(host: Host): UpdateStatus {
  return {
    state: 'unsupported',
    currentVersion: host.appInfo().version,
    message: 'Harbor updates itself in the desktop app; here, update your Harbor install instead.',
    autoUpdate: false,
  };
}

/** Binds every contract command to the Host. Shared by Electron IPC and browser mode. */
export function bindCommands(host: Host): CommandHandlers {
  return {
    'app.info': async () => host.appInfo(),
    // Self-update belongs to the desktop app; main/index.ts replaces these four there.
    'app.updateStatus': async () => updatesUnsupported(host),
    'app.checkForUpdates': async () => updatesUnsupported(host),
    'app.installUpdate': async () => ({ restarting: false }),
    'app.setAutoUpdate': async () => updatesUnsupported(host),
    'servers.list': async () => host.listServers(),
    'servers.restart': ({ name }) => host.restartServer(name),
    'servers.stop': ({ name }) => host.stopServer(name),
    'servers.start': ({ name }) => host.startServer(name),
    'servers.add': ({ name, config }) => host.addServer(name, config),
    'servers.update': ({ name, config, newName }) => host.updateServer(name, config, newName),
    'servers.remove': async ({ name }) => ({ removed: await host.removeServer(name) }),
    'auth.login': ({ name }) => host.login(name),
    'auth.logout': ({ name }) => host.logout(name),
    'registry.get': async () => host.registryView(),
    'registry.save': ({ text }) => host.saveRegistryText(text),
    'registry.importSources': () => host.importSources(),
    'registry.importPreview': ({ path, rename }) => host.importPreview(path, rename === true),
    'registry.importApply': ({ path, rename }) => host.importApply(path, rename === true),
    'servers.approveLaunch': ({ name }) => host.approveLaunchAndStart(name),
    'tools.setEnabled': ({ server, tool, enabled }) => host.setToolEnabled(server, tool, enabled),
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
    'elicitation.pending': async () => ({ general: host.appElicitation?.pendingRequests() ?? [], chat: host.chat.pendingElicitations() }),
    'elicitation.respond': async ({ id, action, content }) => ({ accepted: host.appElicitation?.answer(id, action, content) ?? false }),
    'consent.pending': async () => host.consent.pendingRequests(),
    'consent.respond': async ({ id, decision }) => ({ accepted: host.consent.respond(id, decision) }),
    'consent.list': async () => host.consent.decisions(),
    'consent.revoke': async ({ server, tool }) => ({ removed: host.consent.revoke(server, tool) }),
    'consent.policies': async () => host.consent.policies(),
    'consent.setPolicy': async ({ server, tool, mode }) => {
      host.consent.setPolicy(server, tool, mode);
      return host.consent.policies();
    },
    'secrets.list': async () => {
      // One read of the keychain: when it cannot be read, the page says why (with the fix).
      try {
        return { names: await host.secrets.list(), available: true };
      } catch (error) {
        return { names: [], available: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
    'secrets.set': async ({ name, value }) => {
      await host.secrets.set(name, value);
      // From now on this value is masked wherever Harbor shows or logs text.
      host.redactor.add(value);
      return { set: true };
    },
    'secrets.delete': async ({ name }) => ({ deleted: await host.secrets.delete(name) }),
    'settings.get': () => host.settings(),
    'settings.setModel': ({ model }) => host.setModel(model),
    'settings.setChat': ({ chat }) => host.setChatSettings(chat),
    'chat.status': () => host.chat.status(),
    'chat.send': async ({ conversationId, text, attachments }) => {
      const turn = await host.chat.send({ text, ...(conversationId ? { conversationId } : {}), ...(attachments?.length ? { attachments } : {}) });
      return { conversationId: turn.conversationId, turnId: turn.turnId };
    },
    'chat.context': () => host.chat.context(),
    'chat.stop': async ({ conversationId }) => ({ stopped: host.chat.stop(conversationId) }),
    'chat.answerElicitation': async ({ id, action, content }) => ({ accepted: host.chat.answerElicitation(id, action, content) }),
    'conversations.list': async () => host.chat.list(),
    'conversations.open': async ({ id }) => host.chat.open(id),
    'conversations.rename': async ({ id, title }) => host.chat.rename(id, title),
    'conversations.delete': async ({ id }) => ({ deleted: host.chat.delete(id) }),
    'conversations.export': async ({ id, format }) => host.chat.export(id, format),
  };
}
