import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ChatToolCallOptions } from '../chat/chat-host';
import type { ConsentGate } from '../consent/gate';
import { HarborError } from '../errors';
import { describeProblems, validate } from '../json-schema';
import type { Catalog } from '../servers/catalog';
import type { CallOptions } from '../servers/connection';
import type { RegistryState } from './registry-state';
import type { ServerControl } from './server-control';

/** Options of one tool call beyond timeouts: who asks, and whether the person approved up front (the chat's port asks the same). */
export type ToolCallOptions = ChatToolCallOptions;

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/**
 * What a server offers and calling it: every tool call, from any front door or the chat, goes
 * through the consent gate here. Results leave through the Host's exit (masked), never from here.
 */
export class CallService {
  constructor(
    private readonly servers: ServerControl,
    private readonly consent: ConsentGate,
    private readonly registry: RegistryState,
  ) {}

  async callTool(server: string, tool: string, args: Record<string, unknown> | undefined, options: ToolCallOptions = {}): Promise<CallToolResult> {
    const { consent, ...callOptions } = options;
    if (consent?.approveOnce) this.consent.approveLaunchesForSession(server);
    const connection = await this.servers.ready(server);
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    if (!definition) {
      const known = connection.catalog.tools.map((t) => t.name);
      throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}". Its tools: ${known.join(', ') || '(none)'}.`);
    }
    // Checked here, before the person is asked and before anything is sent: a local message
    // naming the field beats whatever the server would answer (or do) with bad arguments.
    const problems = await validate(definition.inputSchema, args ?? {});
    if (problems.length > 0) {
      throw new HarborError(
        'BAD_REQUEST',
        `The arguments for tool "${tool}" of "${server}" do not match its input schema: ${describeProblems(problems)}. Fix the arguments and call it again.`,
      );
    }
    await this.consent.authorizeTool({
      server,
      trusted: this.registry.server(server)?.trusted === true,
      tool: definition,
      ...(args ? { arguments: args } : {}),
      ...(consent?.conversationId ? { conversationId: consent.conversationId } : {}),
      ...(consent?.approveOnce ? { approveOnce: true } : {}),
    });
    return connection.callTool(tool, args, { timeoutMs: this.timeoutFor(server), ...callOptions });
  }

  async readResource(server: string, uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.servers.ready(server)).readResource(uri, { timeoutMs: this.timeoutFor(server), ...options });
  }

  async getPrompt(server: string, name: string, args: Record<string, string> | undefined, options: CallOptions = {}): Promise<GetPromptResult> {
    return (await this.servers.ready(server)).getPrompt(name, args, { timeoutMs: this.timeoutFor(server), ...options });
  }

  /** Argument suggestions for a prompt or resource template, when the server offers completions. */
  async complete(server: string, ref: CompletionRef, argument: { name: string; value: string }, context?: Record<string, string>): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    return (await this.servers.ready(server)).complete(ref, argument, context);
  }

  async catalog(server: string): Promise<Catalog> {
    return (await this.servers.ready(server)).catalog;
  }

  async instructions(server: string): Promise<string | undefined> {
    return (await this.servers.ready(server)).info.instructions;
  }

  /**
   * Subscribes to every resource of the server for as long as `signal` is not aborted (`harbor
   * watch`): updates arrive as `servers.changed` events. A server that cannot subscribe is not watched.
   */
  async watchResources(server: string, signal: AbortSignal): Promise<void> {
    const connection = this.servers.connection(server);
    await connection.subscribeResources(connection.catalog.resources.map((r) => r.uri), signal).catch(() => undefined);
  }

  private timeoutFor(server: string): number | undefined {
    return this.registry.server(server)?.timeoutMs;
  }
}
