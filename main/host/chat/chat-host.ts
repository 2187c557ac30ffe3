import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ConsentChoice, ServerSummary } from '../../../preload/contract';
import type { HostEvents } from '../events';
import type { ToolCallOptions } from '../host';
import type { Catalog } from '../servers/catalog';

/**
 * What the chat needs from the Host. The Host satisfies it as is; the chat never reaches around it
 * to a server, so every tool call goes through `callTool` and its consent gate.
 */
export interface ChatHost {
  readonly events: HostEvents;
  readonly consent: {
    respond(id: string, decision: ConsentChoice): boolean;
    approveLaunchesForSession(server: string): void;
  };
  listServers(): ServerSummary[];
  catalog(server: string): Promise<Catalog>;
  instructions(server: string): Promise<string | undefined>;
  callTool(server: string, tool: string, args: Record<string, unknown> | undefined, options: ToolCallOptions): Promise<CallToolResult>;
  /** Resources the person attaches to a message (application-controlled: no consent). */
  readResource(server: string, uri: string, options?: { signal?: AbortSignal }): Promise<ReadResourceResult>;
}
