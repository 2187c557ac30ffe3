import type { ModelMessage } from 'ai';
import type { ChatContext } from '../../../preload/contract';
import { ToolIndex, type ServerTools } from '../tools/tool-index';
import { loadTokenCounter, toolTokens } from '../tools/tokens';
import type { ChatHost } from './chat-host';
import { contextBreakdown } from './context-breakdown';
import { useToolSearch, type ChatSettings } from './settings';
import { skillsCost } from './turn-skills';

/**
 * What the tool definitions cost in the model's context, measured the way a turn offers them
 * (exposed names, server-prefixed descriptions, provider input schemas). Only servers that are
 * ready count: measuring must not launch anything (a launch may need the person's consent).
 */
export async function measureContext(host: ChatHost, settings: ChatSettings, history: readonly ModelMessage[] = []): Promise<ChatContext> {
  const enabled = host.listServers().filter((s) => s.enabled);
  const ready = enabled.filter((s) => s.state.kind === 'ready');
  const measured = await Promise.all(
    ready.map(async (s) => {
      try {
        const [catalog, instructions] = await Promise.all([host.catalog(s.name), host.instructions(s.name)]);
        return { name: s.name, tools: catalog.tools, instructions };
      } catch {
        return undefined; // it went away between the list and the read: counted as not connected
      }
    }),
  );
  const servers = measured.filter((m) => m !== undefined);
  const serverTools: ServerTools[] = servers.map((m) => ({ server: m.name, tools: m.tools, disabled: settings.disabledTools(m.name) }));
  const index = ToolIndex.build(serverTools);
  const count = await loadTokenCounter();
  const perServer = new Map<string, { tools: number; toolTokens: number }>();
  for (const tool of index.tools) {
    const entry = perServer.get(tool.server) ?? { tools: 0, toolTokens: 0 };
    entry.tools += 1;
    entry.toolTokens += toolTokens(count, { name: tool.exposedName, description: tool.description, inputSchema: tool.inputSchema });
    perServer.set(tool.server, entry);
  }
  const rows = servers.map((m) => ({
    name: m.name,
    tools: perServer.get(m.name)?.tools ?? 0,
    toolTokens: perServer.get(m.name)?.toolTokens ?? 0,
    instructionTokens: count(m.instructions ?? ''),
  }));
  const total = rows.reduce((sum, r) => sum + r.toolTokens, 0);
  const skills = await skillsCost(host, servers.map((m) => m.name), count);
  const connected = new Set(servers.map((m) => m.name));
  const search = useToolSearch(settings, total);
  const breakdown = contextBreakdown(
    { servers: servers.map((m) => ({ name: m.name, tools: perServer.get(m.name)?.tools ?? 0, ...(m.instructions ? { instructions: m.instructions } : {}) })), toolTokens: total, search, skillTokens: skills.skillTokens ?? 0, history },
    count,
  );
  return {
    contextWindow: settings.contextWindow,
    toolTokens: total,
    instructionTokens: rows.reduce((sum, r) => sum + r.instructionTokens, 0),
    toolCount: index.size,
    searchThresholdTokens: Math.floor(settings.toolSearchThreshold * settings.contextWindow),
    toolSearch: settings.toolSearch,
    mode: search ? 'search' : 'direct',
    servers: rows,
    notConnected: enabled.filter((s) => !connected.has(s.name)).map((s) => s.name),
    ...skills,
    breakdown,
  };
}
