import type { CatalogView, ConversationSummary, ServerSummary } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { navigate } from '../../app/use-route';
import { readPersisted, writePersisted } from '../../lib/persisted';
import { visibleText } from '../../lib/visible-text';
import { ALL_SERVERS } from '../catalog/ServerPicker';
import { asPrompt } from '../prompts/prompt-item';
import { asTool, CHANGED_LABEL } from '../tools/tool-item';
import { requestChat } from './chat-requests';
import type { Command } from './command-registry';
import type { PaletteItem } from './palette-search';
import { formatMonthDay } from '../../lib/time-format';

type CatalogPage = 'tools' | 'resources' | 'prompts';

/**
 * Opens a catalog page with one item open, through what the page itself keeps across reloads:
 * the item picked, and the server picker (left on "All servers" or this server, else set to it).
 */
function openInCatalog(page: CatalogPage, server: string, name: string): void {
  const picked = readPersisted('catalog.server', ALL_SERVERS);
  if (picked !== ALL_SERVERS && picked !== server) writePersisted('catalog.server', server);
  writePersisted(`${page}.selected`, { server, name });
  navigate(hrefFor(page));
}

/** The first line of a description, short: enough to tell two items apart. */
function gist(text: string | undefined): string | undefined {
  const line = text?.split('\n', 1)[0]?.trim();
  if (!line) return undefined;
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

const detailOf = (server: string, description: string | undefined) => visibleText([server, gist(description)].filter(Boolean).join(' · '));

export function serverItems(servers: readonly ServerSummary[]): PaletteItem[] {
  return servers.map((server) => ({
    id: `server:${server.name}`,
    group: 'Servers',
    title: visibleText(server.name),
    detail: visibleText(server.target),
    keywords: server.serverInfo?.name,
    run: () => {
      navigate(hrefFor('servers', server.name));
    },
  }));
}

/** A server's tools, resources (not templates: they need a form first) and prompts. */
export function catalogItems(catalog: CatalogView): PaletteItem[] {
  const server = catalog.server;
  const tools = catalog.tools.flatMap((raw): PaletteItem[] => {
    const tool = asTool(raw, catalog.toolChanges);
    if (!tool) return [];
    return [
      {
        id: `tool:${server}/${tool.name}`,
        group: 'Tools',
        title: visibleText(tool.title ?? tool.name),
        // A tool changed since the person approved it says so first.
        detail: `${tool.change ? `${CHANGED_LABEL} · ` : ''}${detailOf(server, tool.description)}`,
        keywords: `${tool.name} ${server}`,
        run: () => openInCatalog('tools', server, tool.name),
      },
    ];
  });
  const resources = catalog.resources.flatMap((raw): PaletteItem[] => {
    const uri = typeof raw.uri === 'string' ? raw.uri : undefined;
    if (!uri) return [];
    const name = typeof raw.title === 'string' && raw.title ? raw.title : typeof raw.name === 'string' && raw.name ? raw.name : uri;
    return [
      {
        id: `resource:${server}/${uri}`,
        group: 'Resources',
        title: visibleText(name),
        detail: visibleText(`${server} · ${uri}`),
        keywords: `${uri} ${server}`,
        run: () => openInCatalog('resources', server, uri),
      },
    ];
  });
  const prompts = catalog.prompts.flatMap((raw): PaletteItem[] => {
    const prompt = asPrompt(raw);
    if (!prompt) return [];
    return [
      {
        id: `prompt:${server}/${prompt.name}`,
        group: 'Prompts',
        title: visibleText(prompt.title ?? prompt.name),
        detail: detailOf(server, prompt.description),
        keywords: `${prompt.name} ${server}`,
        run: () => openInCatalog('prompts', server, prompt.name),
      },
    ];
  });
  return [...tools, ...resources, ...prompts];
}

export function conversationItems(conversations: readonly ConversationSummary[]): PaletteItem[] {
  return conversations.map((conversation) => ({
    id: `conversation:${conversation.id}`,
    group: 'Conversations',
    title: visibleText(conversation.title),
    detail: formatMonthDay(conversation.updatedAt),
    run: () => requestChat({ kind: 'open', id: conversation.id }),
  }));
}

export function commandItems(commands: readonly Command[]): PaletteItem[] {
  return commands.map((command) => ({
    id: `command:${command.id}`,
    group: command.group,
    title: command.title,
    ...(command.keywords ? { keywords: command.keywords } : {}),
    ...(command.shortcuts ? { shortcuts: command.shortcuts } : {}),
    run: command.run,
  }));
}
