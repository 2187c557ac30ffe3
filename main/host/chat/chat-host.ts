import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client';
import type { ConsentChoice, ConsentRequester, ServerSummary, TaskView } from '../../../preload/contract';
import type { AppModelContext } from '../apps/model-context';
import type { HostEvents } from '../events';
import type { CallOptions } from '../servers/connection';
import type { ToolRanker } from '../tools/search';
import type { ChatSkills } from './turn-skills';

/** How the chat calls a tool: a call's timeouts and progress, plus who asks (for the consent gate). */
export interface ChatToolCallOptions extends CallOptions {
  readonly consent?: {
    /** "Allow for this conversation" approvals are kept per conversation. */
    readonly conversationId?: string;
    /** `--yes`: the person approved this turn's calls up front. */
    readonly approveOnce?: boolean;
    /** Who asks, as the consent dialog names it (default: the person, a call by hand). */
    readonly requester?: ConsentRequester;
  };
  /** When the server runs the call as a task: its status on the way, and how long to wait for it. */
  readonly task?: { readonly deadlineMs?: number; readonly onUpdate?: (task: TaskView) => void };
}

/**
 * The port the chat needs from the Host, declared here so the chat depends on no Host code. The
 * Host hands it calls that pass the consent gate and the redaction exit: the chat never reaches
 * a server itself, and the model never sees a secret a server echoed.
 */
export interface ChatHost {
  readonly events: HostEvents;
  readonly consent: {
    respond(id: string, decision: ConsentChoice): boolean;
    approveLaunchesForSession(server: string): void;
  };
  listServers(): ServerSummary[];
  /** The tools a model may be offered (as the person approved them); a server may be offered from the catalog cache, not started (services/lazy-catalogs.ts). */
  catalog(server: string): Promise<{ readonly tools: readonly Tool[] }>;
  /** The tools changed since the person approved them (why a tool is needs-approval). */
  toolChanges?(server: string): Promise<readonly { readonly tool: string }[]>;
  instructions(server: string): Promise<string | undefined>;
  callTool(server: string, tool: string, args: Record<string, unknown> | undefined, options: ChatToolCallOptions): Promise<CallToolResult>;
  /** The Host's one tool search (search_tools ranks a turn's tools with it). */
  readonly searchTools: ToolRanker;
  /** Resources the person attaches to a message (application-controlled: no consent). */
  readResource(server: string, uri: string, options?: { signal?: AbortSignal }): Promise<ReadResourceResult>;
  /** What the conversation's apps asked the model to know, for its next turn (none when absent). */
  appContext?(conversationId: string): readonly AppModelContext[];
  /** Skills the servers publish (the load_skill tool and the skills index); absent: none offered. */
  readonly skills?: ChatSkills;
}
