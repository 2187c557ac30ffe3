import { join } from 'node:path';
import type { AppModelContext } from '../apps/model-context';
import { ConversationStore } from '../chat/conversations/store';
import type { SecretResolver } from '../chat/providers';
import { ChatService } from '../chat/service';
import { CodeSandbox } from '../code-mode/sandbox';
import type { ConsentGate } from '../consent/gate';
import type { HostEvents } from '../events';
import { guardedDataFile } from '../lazy-data-file';
import type { DisposableStore } from '../lifecycle';
import type { LogSink } from '../log/harbor-log';
import { CatalogCache } from '../servers/catalog-cache';
import { EraCache } from '../servers/era-cache';
import { CodeService } from './code-service';
import type { dataFiles } from './data-files';
import type { openDoors } from './doors';
import type { HostOptions } from './host-options';
import { CatalogCacheKeeper, LazyCatalogs } from './lazy-catalogs';
import type { ServerControl } from './server-control';
import type { ServerIdentities } from './server-identities';

export interface ChatWiring {
  readonly owned: DisposableStore;
  readonly options: HostOptions;
  readonly files: ReturnType<typeof dataFiles>;
  readonly doors: ReturnType<typeof openDoors>;
  readonly inner: HostEvents;
  readonly servers: ServerControl;
  readonly gate: ConsentGate;
  readonly identities: ServerIdentities;
  readonly log: LogSink;
  readonly appContext: (conversationId: string) => readonly AppModelContext[];
  readonly resolveSecret: SecretResolver;
  readonly clean: <T>(value: T) => T;
}

/**
 * The chat, code mode and where both read the servers' catalogs from. In the CLI (`harbor chat`,
 * `harbor exec`) a server whose catalog is cached for its exact launch starts at its first call
 * (services/lazy-catalogs.ts), and those two commands keep that cache up to date (no other
 * one-shot command pays for it); the app and browser mode keep their servers running and read the doors.
 */
export function openChatAndCode(w: ChatWiring): { chat: ChatService; code: CodeService; conversations: ConversationStore } {
  const { doors, options } = w;
  // Only the commands that read the cache keep it (HostOptions.catalogCache: exec, chat), never a read-only one.
  const keeps = options.catalogCache === true && options.dataAccess !== 'read-only';
  const cache = options.mode === 'cli' && keeps ? new CatalogCache(join(options.dataDir, 'catalog-cache'), w.log) : undefined;
  // Disposed before the servers stop (registered after them): the catalogs of this run are written first.
  if (cache) w.owned.add(new CatalogCacheKeeper(w.inner, { servers: w.servers, identities: w.identities, cache }));
  const offer = cache && !options.startAllServers
    ? new LazyCatalogs({
        servers: w.servers,
        consent: w.gate,
        identities: w.identities,
        cache,
        eras: new EraCache(join(options.dataDir, 'era-cache.json')),
        live: doors.calls,
        clean: w.clean,
      })
    : undefined;
  const conversations = w.owned.add(guardedDataFile(w.files.conversations, new ConversationStore(w.files.conversations.path)));
  // run_code's scripts: disposed after the chat, whose turns end their scripts first.
  const codeSandbox = w.owned.add(new CodeSandbox());
  // The chat reaches servers through the same doors as a front door: its calls pass the consent
  // gate, and the model sees a server's answer only after the exit.
  const chat = w.owned.add(
    new ChatService({
      // The model is offered each tool as the person approved it (calls.offeredCatalog).
      host: {
        ...doors.calls,
        catalog: offer ? (server) => offer.offeredCatalog(server) : doors.calls.offeredCatalog,
        ...(offer ? { instructions: (server: string) => offer.instructions(server), toolChanges: (server: string) => offer.toolChanges(server) } : {}),
        events: w.inner,
        consent: doors.consent,
        listServers: doors.servers.list,
        searchTools: doors.tools.rank,
        appContext: w.appContext,
        skills: offer ? offer.skills(doors.skills) : doors.skills,
      },
      store: conversations,
      configPath: options.configPath,
      settings: () => doors.settings.chat(),
      resolveSecret: w.resolveSecret,
      codeSandbox,
      ...(options.ollamaUrl ? { ollamaUrl: options.ollamaUrl } : {}),
    }),
  );
  const code = new CodeService({
    sandbox: codeSandbox,
    listServers: doors.servers.list,
    catalog: offer ? (server) => offer.offeredCatalog(server) : doors.calls.offeredCatalog,
    settings: () => doors.settings.chat(),
    callTool: doors.calls.callTool,
    clean: w.clean,
  });
  return { chat, code, conversations };
}
