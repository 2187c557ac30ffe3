import type { CallToolResult, GetPromptResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client';
import type { ChatToolCallOptions } from '../chat/chat-host';
import type { ConsentGate, ToolAuthorization } from '../consent/gate';
import type { ToolReview } from '../consent/policy';
import { isCallableByApp } from '../apps/ui-meta';
import { HarborError } from '../errors';
import { promiseOf } from '../promise-of';
import type { JsonSchemaValidator, SchemaCheck } from '../json-schema';
import { describeProblems } from '../schema-problems';
import type { Catalog } from '../servers/catalog';
import type { CallOptions, ServerConnection } from '../servers/connection';
import type { TaskService } from '../tasks/service';
import { checkPromptArguments } from '../tools/prompt-arguments';
import { withDefaultsOptional } from '../tools/required-defaults';
import type { RegistryState } from './registry-state';
import type { ServerControl } from './server-control';
import type { ServerIdentities } from './server-identities';

/** Options of one tool call beyond timeouts: who asks, and whether the person approved up front (the chat's port asks the same). */
export type ToolCallOptions = ChatToolCallOptions;

export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** A resource `harbor watch` asked for that the server would not subscribe to, with its message. */
export interface WatchRefusal {
  readonly uri: string;
  readonly message: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A request a front door starts by hand: with a `requestId` of its choosing, `cancel` can stop it (the Stop button). */
export interface ManualRequestOptions {
  readonly requestId?: string;
}

/**
 * What a server offers and calling it: every tool call, from any front door or the chat, goes
 * through the consent gate here. Results leave through the Host's exit (masked), never from here.
 */
export class CallService {
  /** The running requests started with a requestId, each with the abort that `cancel` pulls. */
  private readonly byRequestId = new Map<string, AbortController>();
  /**
   * Each tool definition's argument check, compiled on its first call. Keyed by the catalog's
   * definition object: a refresh replaces definitions, never changes one in place (the consent
   * fingerprint relies on the same), so a changed inputSchema is checked by a new validator.
   */
  private readonly argumentChecks = new WeakMap<Tool, (args: unknown) => SchemaCheck>();

  constructor(
    private readonly servers: ServerControl,
    private readonly consent: ConsentGate,
    private readonly registry: RegistryState,
    private readonly identities: ServerIdentities,
    private readonly schemas: JsonSchemaValidator,
    private readonly tasks: TaskService,
  ) {}

  callTool(server: string, tool: string, args: Record<string, unknown> | undefined, options: ToolCallOptions & ManualRequestOptions = {}): Promise<CallToolResult> {
    // Without an id (most calls) the options go on as they are: a copy without `requestId` per call bought nothing.
    if (options.requestId === undefined) return this.authorizedCall(server, tool, args, options);
    const { requestId, ...rest } = options;
    return this.cancellableById(requestId, rest, (withCancel) => this.authorizedCall(server, tool, args, withCancel));
  }

  /**
   * Not async: an approved call on a ready server (the steady state) goes from here to the task
   * service without an async frame of its own or one for consent. A failure before the request
   * (unknown tool, bad arguments, consent refused) still comes back as a rejection, never a throw.
   */
  private authorizedCall(server: string, tool: string, args: Record<string, unknown> | undefined, options: ToolCallOptions): Promise<CallToolResult> {
    return promiseOf(() => {
      // --yes covers the launch this call needs: the server as configured now.
      if (options.consent?.approveOnce) this.consent.approveLaunchForSession(this.identities.launchKeyOf(server));
      // The hot path of every call: a ready server's connection is used as is, without awaiting ready().
      const current = this.servers.connection(server);
      if (current.state.kind !== 'ready') return this.servers.ready(server).then((connection) => this.callOn(connection, server, tool, args, options));
      return this.callOn(current, server, tool, args, options);
    });
  }

  /** Checks the arguments and consent, then calls; throws (synchronously) what stops the call before it is sent. */
  private callOn(connection: ServerConnection, server: string, tool: string, args: Record<string, unknown> | undefined, options: ToolCallOptions): Promise<CallToolResult> {
    const { consent, ...callOptions } = options;
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    if (!definition) {
      const known = connection.catalog.tools.map((t) => t.name);
      throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${tool}". Its tools: ${known.join(', ') || '(none)'}.`);
    }
    const { identity, config } = this.identities.of(server);
    // Checked here, before the person is asked and before anything is sent: a local message
    // naming the field beats whatever the server would answer (or do) with bad arguments. Formats
    // are annotations here: Harbor never refuses what the server itself would accept.
    const checked = this.argumentCheck(definition)(args ?? {});
    if (!checked.valid) {
      throw new HarborError(
        'BAD_REQUEST',
        `The arguments for tool "${tool}" of "${server}" do not match its input schema: ${describeProblems(checked.problems, 'the arguments')}. Fix the arguments and call it again.`,
      );
    }
    // Built field by field, not with conditional spreads: each spread made an object of its own, on every call.
    const authorization: Mutable<ToolAuthorization> = {
      server,
      identity,
      trusted: config.trusted === true,
      tool: definition,
      // A front door's own call is the person's; the chat, code mode and Apps say who they are.
      requester: consent?.requester ?? { kind: 'person' },
    };
    if (args) authorization.arguments = args;
    if (consent?.conversationId) authorization.conversationId = consent.conversationId;
    if (consent?.approveOnce) authorization.approveOnce = true;
    if (callOptions.signal) authorization.signal = callOptions.signal;
    // An App's session grant covers the tools it may call (visibility), as they are now.
    if (consent?.requester?.kind === 'app') authorization.appTools = connection.catalog.tools.filter(isCallableByApp);
    const asking = this.consent.authorizeTool(authorization);
    // A server may run the call as a task: it is followed to its end, and its result comes back the same way.
    // The registry's timeout unless the caller set one: set on the copy above, not spread into another.
    if (!('timeoutMs' in callOptions)) callOptions.timeoutMs = this.timeoutFor(server);
    const call = () => this.tasks.callTool(connection, server, definition, args, callOptions);
    return asking ? asking.then(call) : call();
  }

  readResource(server: string, uri: string, options: CallOptions & ManualRequestOptions = {}): Promise<ReadResourceResult> {
    const { requestId, ...rest } = options;
    return this.cancellable(requestId, rest, async (withCancel) =>
      (await this.servers.ready(server)).readResource(uri, { timeoutMs: this.timeoutFor(server), ...withCancel }),
    );
  }

  getPrompt(server: string, name: string, args: Record<string, string> | undefined, options: CallOptions & ManualRequestOptions = {}): Promise<GetPromptResult> {
    const { requestId, ...rest } = options;
    return this.cancellable(requestId, rest, async (withCancel) => {
      const connection = await this.servers.ready(server);
      checkPromptArguments(server, connection.catalog.prompts, name, args);
      return connection.getPrompt(name, args, { timeoutMs: this.timeoutFor(server), ...withCancel });
    });
  }

  /**
   * Stops the request started with `requestId`: the connection tells the server (notifications/
   * cancelled, or the HTTP request's stream closes) and the request ends with CANCELLED. False when
   * no such request is running (it has already finished).
   */
  cancel(requestId: string): boolean {
    const controller = this.byRequestId.get(requestId);
    if (!controller) return false;
    controller.abort(new Error('Stopped by the person.'));
    return true;
  }

  /** Runs `run` with the caller's options plus an abort that `cancel(requestId)` pulls. */
  private cancellable<T, O extends CallOptions>(requestId: string | undefined, options: O, run: (options: O) => Promise<T>): Promise<T> {
    // Without an id nothing can cancel it by id: the request itself, with no wrapper around it.
    if (requestId === undefined) return run(options);
    return this.cancellableById(requestId, options, run);
  }

  private async cancellableById<T, O extends CallOptions>(requestId: string, options: O, run: (options: O) => Promise<T>): Promise<T> {
    if (this.byRequestId.has(requestId)) {
      throw new HarborError('BAD_REQUEST', `A request with id "${requestId}" is already running: give every request its own id.`);
    }
    const controller = new AbortController();
    this.byRequestId.set(requestId, controller);
    try {
      return await run({ ...options, signal: options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal });
    } finally {
      this.byRequestId.delete(requestId);
    }
  }

  /** Argument suggestions for a prompt or resource template, when the server offers completions. */
  async complete(server: string, ref: CompletionRef, argument: { name: string; value: string }, context?: Record<string, string>): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    return (await this.servers.ready(server)).complete(ref, argument, context);
  }

  async catalog(server: string): Promise<Catalog> {
    return (await this.servers.ready(server)).catalog;
  }

  /**
   * The catalog as a model may see it (the chat, code mode): a tool changed since the person
   * approved it is offered as approved until they review it (ConsentGate.asApproved).
   */
  async offeredCatalog(server: string): Promise<Catalog> {
    const catalog = await this.catalog(server);
    return { ...catalog, tools: this.consent.asApproved(this.identities.of(server).identity, catalog.tools) };
  }

  /** The tools of a server that changed since the person approved them: what changed, and what they approved. */
  async toolChanges(server: string): Promise<ToolReview[]> {
    const catalog = await this.catalog(server);
    return this.consent.reviews(this.identities.of(server).identity, catalog.tools);
  }

  async instructions(server: string): Promise<string | undefined> {
    return (await this.servers.ready(server)).info.instructions;
  }

  /**
   * Subscribes to `uris` (default: every resource of the server) for as long as `signal` is not
   * aborted (`harbor watch`): updates arrive as `servers.changed` events. Resolves once subscribed,
   * with the subscriptions the server refused (each also in Harbor's log): those are not watched.
   */
  async watchResources(server: string, signal: AbortSignal, uris?: readonly string[]): Promise<WatchRefusal[]> {
    const connection = await this.servers.ready(server);
    const { subscriptions } = connection;
    const watched = (uris ?? connection.catalog.resources.map((r) => r.uri)).filter((uri) => !subscriptions.has(uri));
    if (signal.aborted) return [];
    // Each failure is logged by ResourceSubscriptions; the URIs leave the set either way.
    signal.addEventListener('abort', () => void Promise.all(watched.map((uri) => subscriptions.remove(uri))).catch(() => undefined), { once: true });
    const outcomes = await Promise.allSettled(watched.map((uri) => subscriptions.add(uri)));
    return outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ uri: watched[i]!, message: messageOf(outcome.reason) }] : []));
  }

  private argumentCheck(definition: Tool): (args: unknown) => SchemaCheck {
    let check = this.argumentChecks.get(definition);
    if (!check) this.argumentChecks.set(definition, (check = this.schemas.prepare(withDefaultsOptional(definition.inputSchema), { assertFormats: false })));
    return check;
  }

  private timeoutFor(server: string): number | undefined {
    return this.registry.server(server)?.timeoutMs;
  }
}
