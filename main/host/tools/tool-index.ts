import type { Tool } from '@modelcontextprotocol/client';
import { isVisibleToModel } from '../apps/ui-meta';
import { assignExposedNames } from './names';
import { providerInputSchema, type JsonObjectSchema } from './schema';

/** One server's tools as the index takes them. */
export interface ServerTools {
  readonly server: string;
  readonly tools: readonly Tool[];
  /** Tool names the person turned off. */
  readonly disabled?: ReadonlySet<string>;
}

/** A tool as the model sees it, and where a call to it goes. */
export interface IndexedTool {
  readonly exposedName: string;
  readonly server: string;
  readonly tool: Tool;
  /** The server's description, prefixed with the server's configured name. */
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
}

/** The model-facing description: which server a tool belongs to comes first, from Harbor. */
export function exposedDescription(server: string, tool: Tool): string {
  const text = (tool.description ?? tool.title ?? '').trim();
  return text ? `[${server}] ${text}` : `[${server}] ${tool.name}`;
}

/**
 * Every enabled tool of the connected servers under its exposed name (`server__tool`), in server
 * order then catalog order, with routing back from an exposed name to (server, tool). A tool whose
 * MCP Apps visibility leaves out the model (`_meta.ui.visibility: ["app"]`) is not indexed: the
 * model is never offered it, cannot find it and cannot call it; its app still can.
 */
export class ToolIndex {
  private readonly byName = new Map<string, IndexedTool>();
  /** `server` NUL `tool` → entry: tool names are free text, so no printable separator is safe. */
  private readonly byServerTool = new Map<string, IndexedTool>();

  private constructor(readonly tools: readonly IndexedTool[]) {
    for (const tool of tools) {
      this.byName.set(tool.exposedName, tool);
      this.byServerTool.set(`${tool.server}\u0000${tool.tool.name}`, tool);
    }
  }

  static build(servers: readonly ServerTools[]): ToolIndex {
    const offered = servers.flatMap((s) => s.tools.filter((t) => !s.disabled?.has(t.name) && isVisibleToModel(t)).map((tool) => ({ server: s.server, tool })));
    const names = assignExposedNames(offered.map((o) => ({ server: o.server, tool: o.tool.name })));
    return new ToolIndex(
      offered.map((o, i) => ({
        exposedName: names[i]!,
        server: o.server,
        tool: o.tool,
        description: exposedDescription(o.server, o.tool),
        inputSchema: providerInputSchema(o.tool.inputSchema),
      })),
    );
  }

  resolve(exposedName: string): IndexedTool | undefined {
    return this.byName.get(exposedName);
  }

  /** The entry of a server's tool by its own name (undefined when it is not offered). */
  find(server: string, tool: string): IndexedTool | undefined {
    return this.byServerTool.get(`${server}\u0000${tool}`);
  }

  get size(): number {
    return this.tools.length;
  }
}
