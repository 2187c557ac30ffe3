import type { SkillServerData, UpdateStatus } from '../preload/contract';
import type { CommandHandlers } from './dispatch';
import type { Host } from './host/host';
import { bindInstallCommands } from './install-handlers';
import { withResultPreviews } from './host/chat/result-previews';

function updatesUnsupported(host: Host): UpdateStatus {
  return {
    state: 'unsupported',
    currentVersion: host.appInfo().version,
    message: 'Harbor updates itself in the desktop app; here, update your Harbor install instead.',
    autoUpdate: false,
  };
}

/** The skills of every ready server; a server whose listing failed says why (its message left the door redacted). */
async function skillsOfReadyServers(host: Host): Promise<SkillServerData[]> {
  const ready = (await host.servers.list()).filter((server) => server.enabled && server.state.kind === 'ready');
  return Promise.all(
    ready.map(async ({ name }) => {
      try {
        return { server: name, skills: await host.skills.list(name) };
      } catch (error) {
        return { server: name, skills: [], error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

/** Binds every contract command to the Host's doors. Shared by Electron IPC and browser mode. */
export function bindCommands(host: Host): CommandHandlers {
  return {
    'app.info': async () => host.appInfo(),
    // Self-update belongs to the desktop app; main/index.ts replaces these four there.
    'app.updateStatus': async () => updatesUnsupported(host),
    'app.checkForUpdates': async () => updatesUnsupported(host),
    'app.installUpdate': async () => ({ restarting: false }),
    'app.setAutoUpdate': async () => updatesUnsupported(host),
    'servers.list': async () => host.servers.list(),
    'servers.restart': ({ name }) => host.servers.restart(name),
    'servers.stop': ({ name }) => host.servers.stop(name),
    'servers.start': ({ name }) => host.servers.start(name),
    'servers.retryLists': ({ name }) => host.servers.retryLists(name),
    'servers.diagnose': ({ name, config }) => host.doctor.diagnose(name, config),
    'harborLog.read': async ({ server, level }) => host.harborLog.read({ ...(server ? { server } : {}), ...(level ? { level } : {}) }),
    // The desktop app replaces this with the file manager (main/shell/log-folder.ts); a page gets the path.
    'app.openLogFolder': async () => ({ supported: false, path: host.harborLog.folder().path }),
    'servers.add': ({ name, config, secrets }) => host.registry.add(name, config, secrets),
    'servers.update': ({ name, config, newName, secrets }) => host.registry.update(name, config, newName, secrets),
    'servers.remove': async ({ name }) => ({ removed: await host.registry.remove(name) }),
    'servers.stderr': async ({ name }) => ({ text: host.servers.stderrTail(name) }),
    'servers.launchFailures': async () => host.servers.launchFailures(),
    'auth.login': ({ name }) => host.auth.login(name),
    'auth.logout': ({ name }) => host.auth.logout(name),
    'auth.status': ({ name }) => host.auth.status(name),
    'registry.get': async () => host.registry.view(),
    'registry.save': ({ text, hash }) => host.registry.saveText(text, hash),
    'registry.check': async ({ text }) => host.registry.check(text),
    'registry.importSources': () => host.imports.sources(),
    'registry.importPreview': ({ path, text, rename, inputs, choices, allowEnv, allowLookalike }) => host.imports.preview(path ?? { text: text ?? '' }, rename === true, inputs, choices, allowEnv, allowLookalike),
    'registry.importApply': ({ path, text, rename, inputs, choices, allowEnv, allowLookalike }) => host.imports.apply(path ?? { text: text ?? '' }, rename === true, inputs, choices, allowEnv, allowLookalike),
    'servers.approveLaunch': ({ name }) => host.servers.approveLaunchAndStart(name),
    'tools.setEnabled': ({ server, tool, enabled }) => host.registry.setToolEnabled(server, tool, enabled),
    'catalog.get': async ({ name }) => {
      const [catalog, changes] = await Promise.all([host.calls.catalog(name), host.calls.toolChanges(name)]);
      // Readonly arrays of MCP objects, copied into the contract's plain-data shape.
      const toolChanges = changes.map((c) => ({ tool: c.tool, changed: [...c.changed], approved: { ...c.approved } }));
      return {
        server: name,
        tools: [...catalog.tools],
        resources: [...catalog.resources],
        resourceTemplates: [...catalog.resourceTemplates],
        prompts: [...catalog.prompts],
        ...(toolChanges.length ? { toolChanges } : {}),
      };
    },
    'tools.search': async ({ query, limit, server, asYouType }) => host.tools.search(query, limit, { ...(server === undefined ? {} : { server }), ...(asYouType === undefined ? {} : { asYouType }) }),
    'tools.offer': async ({ server, toolset }) => host.chat.offer(server, toolset),
    'tools.call': async ({ server, tool, arguments: args, requestId }) => (await host.calls.callTool(server, tool, args, requestId ? { requestId } : {})),
    'resources.read': async ({ server, uri, requestId }) => (await host.calls.readResource(server, uri, requestId ? { requestId } : {})),
    'prompts.get': async ({ server, name, arguments: args, requestId }) => (await host.calls.getPrompt(server, name, args, requestId ? { requestId } : {})),
    'calls.cancel': async ({ requestId }) => ({ cancelled: host.calls.cancel(requestId) }),
    'completion.complete': ({ server, ref, argument, context }) => host.calls.complete(server, ref, argument, context),
    'traffic.list': async ({ server, afterSeq }) => host.traffic.list({ ...(server ? { server } : {}), ...(afterSeq !== undefined ? { afterSeq } : {}) }),
    'serverEvents.list': async ({ afterSeq }) => host.serverEvents.list(afterSeq !== undefined ? { afterSeq } : {}),
    'elicitation.pending': async () => host.elicitation.pending(),
    'elicitation.respond': async ({ id, action, content }) => ({ accepted: host.elicitation.respond(id, action, content) }),
    'sampling.pending': async () => host.sampling.pending(),
    'sampling.respond': async (answer) => ({ accepted: host.sampling.respond(answer) }),
    'logs.list': async ({ server }) => host.logs.view(server),
    'logs.setLevel': ({ server, level }) => host.logs.setLevel(server, level),
    'resources.subscriptions': async ({ server }) => host.subscriptions.list(server),
    'resources.subscribe': ({ server, uri }) => host.subscriptions.subscribe(server, uri),
    'resources.unsubscribe': ({ server, uri }) => host.subscriptions.unsubscribe(server, uri),
    // The desktop app replaces this with its folder dialog (main/shell/folder-picker.ts).
    'app.pickFolder': async () => ({ supported: false }),
    'consent.pending': async () => host.consent.pendingRequests(),
    'consent.respond': async ({ id, decision }) => ({ accepted: host.consent.respond(id, decision) }),
    'consent.list': async () => host.consent.decisions(),
    'consent.revoke': async ({ server, tool }) => ({ removed: host.consent.revoke(server, tool) }),
    'consent.policies': async () => host.consent.policies(),
    'consent.setPolicy': async ({ server, tool, mode }) => {
      host.consent.setPolicy(server, tool, mode);
      return host.consent.policies();
    },
    // When the keychain cannot be read, the page says why (with the fix).
    'secrets.list': () => host.secrets.overview(),
    // From now on the value is masked wherever Harbor shows or logs text.
    'secrets.set': async ({ name, value }) => {
      await host.secrets.set(name, value);
      return { set: true };
    },
    'secrets.delete': async ({ name }) => ({ deleted: await host.secrets.delete(name) }),
    'settings.get': () => host.settings.get(),
    'settings.setModel': ({ model }) => host.settings.setModel(model),
    'settings.setChat': ({ chat }) => host.settings.setChat(chat),
    'settings.testModel': () => host.settings.testModel(),
    'settings.setToolset': ({ name, entries }) => host.settings.setToolset(name, entries),
    'chat.status': () => host.chat.status(),
    'chat.send': async ({ conversationId, text, attachments, files, editOf, toolset }) => {
      const turn = await host.chat.send({
        text,
        ...(toolset !== undefined ? { toolset } : {}),
        ...(conversationId ? { conversationId } : {}),
        ...(attachments?.length ? { attachments } : {}),
        ...(files?.length ? { files } : {}),
        ...(editOf ? { editOf } : {}),
      });
      return { conversationId: turn.conversationId, turnId: turn.turnId };
    },
    'chat.regenerate': async ({ conversationId, turnId }) => {
      const turn = await host.chat.regenerate({ conversationId, turnId });
      return { conversationId: turn.conversationId, turnId: turn.turnId };
    },
    'chat.context': ({ conversationId }) => host.chat.context(conversationId),
    'chat.stop': async ({ conversationId }) => ({ stopped: host.chat.stop(conversationId) }),
    'conversations.list': async () => host.chat.list(),
    // Previews are cut from the masked conversation (the door masks whole values, never half of one).
    'conversations.open': async ({ id, fromTurn, resultsOver }) => (resultsOver === undefined ? host.chat.open(id, fromTurn) : withResultPreviews(host.chat.open(id, fromTurn), resultsOver)),
    'conversations.result': async ({ id, turnId, callId }) => host.chat.result(id, turnId, callId),
    'conversations.switchBranch': async ({ id, turnId }) => host.chat.switchBranch(id, turnId),
    'conversations.rename': async ({ id, title }) => host.chat.rename(id, title),
    'conversations.setToolset': async ({ id, toolset }) => host.chat.setToolset(id, toolset),
    'conversations.delete': async ({ id }) => ({ deleted: host.chat.delete(id) }),
    'conversations.export': async ({ id, format }) => host.chat.export(id, format),
    // MCP Apps: the page relays each app's bridge requests; the Host decides and records them.
    'apps.forTool': async ({ server, tool }) => host.apps.forTool(server, tool),
    'apps.open': (request) => host.apps.open(request),
    'apps.callTool': async ({ instanceId, name, arguments: args }) => (await host.apps.callTool(instanceId, name, args)),
    'apps.readResource': async ({ instanceId, uri }) => (await host.apps.readResource(instanceId, uri)),
    'apps.listTools': ({ instanceId }) => host.apps.listTools(instanceId),
    'apps.listResources': ({ instanceId }) => host.apps.listResources(instanceId),
    'apps.record': async ({ instanceId, method, outcome, detail }) => ({ recorded: host.apps.recordRequest(instanceId, method, outcome, detail) }),
    'apps.updateModelContext': async ({ instanceId, content, structuredContent }) => ({ stored: host.apps.updateModelContext(instanceId, content, structuredContent) }),
    'apps.close': async ({ instanceId }) => ({ closed: host.apps.close(instanceId) }),
    'apps.activity': async ({ afterSeq }) => host.apps.activity(afterSeq),
    'sandbox.status': () => host.sandbox.status(),
    'sandbox.refusals': async ({ server }) => host.sandbox.refusals(server),
    'sandbox.allow': ({ server, change }) => host.sandbox.allow(server, change),
    'sandbox.setInstallDefault': ({ sandbox }) => host.sandbox.setInstallDefault(sandbox),
    'skills.list': () => skillsOfReadyServers(host),
    'skills.files': ({ server, uri }) => host.skills.files(server, uri),
    'skills.grant': async ({ server, uri }) => ({ files: (await host.skills.grant(server, uri)).length }),
    'skills.revoke': async ({ server, uri }) => ({ removed: host.skills.revoke(server, uri) }),
    'tasks.list': async ({ server }) => host.tasks.list(server),
    'tasks.cancel': async ({ server, taskId }) => ({ cancelled: await host.tasks.cancel(server, taskId) }),
    'tasks.result': async ({ server, taskId }) => host.tasks.result(server, taskId),
    ...bindInstallCommands(host),
  };
}
