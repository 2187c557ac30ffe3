import type { CallToolResult, ReadResourceResult, Tool } from '@modelcontextprotocol/client';
import type { AppActivityEntry, AppToolUi, AppView, ConsentRequester } from '../../../preload/contract';
import { AppActivityLog, type NewAppActivity } from '../apps/app-activity';
import { AppInstances, type AppInstance } from '../apps/app-instances';
import { AppResourceCache } from '../apps/app-resource-cache';
import { appPolicy, PERMISSION_REFUSAL } from '../apps/app-policy';
import { appResourceFrom, assertAppUri } from '../apps/app-resource';
import { AppModelContexts, contextText, type AppModelContext } from '../apps/model-context';
import { AppRequests } from '../apps/app-requests';
import { isCallableByApp, toolUiResourceUri } from '../apps/ui-meta';
import { HarborError } from '../errors';
import type { EventPayload } from '../../../preload/contract';
import type { HostEvents } from '../events';
import { markAsDisposed, toDisposable, trackDisposable, type Disposable } from '../lifecycle';
import { appOpenedEntries, argumentsSummary, policyView } from './app-records';
import type { CallService } from './calls';
import type { ServerControl } from './server-control';

/** Where a door serves the apps' sandbox: browser mode's second origin, or the desktop's own protocol. */
export interface AppSandbox {
  /** The sandbox page of one open app (on an origin that is not the page's). */
  urlFor(instanceId: string): string;
}

export interface OpenAppRequest {
  readonly server: string;
  readonly tool?: string;
  readonly uri?: string;
  readonly conversationId?: string;
  readonly toolCallId?: string;
}

export interface AppServiceDeps {
  readonly servers: ServerControl;
  readonly calls: CallService;
  /** The Host's inner bus: every audit entry is announced as `apps.activity`. */
  readonly events: HostEvents;
}

/**
 * MCP Apps on the Host's side: opens an app (reads its `ui://` resource, decides its policy), and
 * answers what it asks through its bridge. An app is known only by its instance id, which fixes
 * its server: its tool calls and reads go to that server alone, tool calls through the consent
 * gate like any other, and only to tools the server offers to apps. Everything an app asks, and
 * every grant it gets, is written to the audit trail (`apps.activity`). An app's resource is read
 * once and kept (`AppResourceCache`) until its server says it changed.
 */
export class AppService implements Disposable {
  private readonly instances = new AppInstances();
  private readonly log: AppActivityLog;
  private readonly contexts = new AppModelContexts();
  private readonly resources = new AppResourceCache();
  private readonly stopListening: Disposable;
  /** What each app waits for: one call per tool, a few in all, withdrawn when the app closes. */
  private readonly requests = new AppRequests();
  private sandbox: AppSandbox | undefined;

  constructor(private readonly deps: AppServiceDeps) {
    this.log = new AppActivityLog((entry) => deps.events.emit('apps.activity', entry));
    this.stopListening = deps.events.onEvent('servers.changed', (change) => this.forgetChanged(change));
    trackDisposable(this);
  }

  dispose(): void {
    markAsDisposed(this);
    void this.stopListening.dispose();
  }

  /** A door that can show apps says where their sandbox is served; until then apps cannot open. */
  attachSandbox(sandbox: AppSandbox): Disposable {
    this.sandbox = sandbox;
    return toDisposable(() => {
      if (this.sandbox === sandbox) this.sandbox = undefined;
    });
  }

  /** Whether a tool has an app, from the catalog of a connected server (never connecting one). */
  forTool(server: string, tool: string): AppToolUi {
    const connection = this.deps.servers.connection(server);
    if (connection.state.kind !== 'ready') return { known: false };
    const definition = connection.catalog.tools.find((t) => t.name === tool);
    const resourceUri = definition ? toolUiResourceUri(definition) : undefined;
    return { known: true, ...(resourceUri ? { resourceUri } : {}) };
  }

  async open(request: OpenAppRequest): Promise<AppView> {
    const sandbox = this.sandbox;
    if (!sandbox) {
      throw new HarborError('BAD_REQUEST', 'Apps are shown in the Harbor app and in browser mode ("harbor web"); here there is no window to show one in.');
    }
    const { server } = request;
    const connection = await this.deps.servers.ready(server);
    let tool: Tool | undefined;
    let uri = request.uri;
    if (request.tool !== undefined) {
      tool = connection.catalog.tools.find((t) => t.name === request.tool);
      if (!tool) throw new HarborError('TOOL_NOT_FOUND', `"${server}" has no tool named "${request.tool}" (any more), so its app cannot be shown.`);
      uri = toolUiResourceUri(tool);
      if (!uri) throw new HarborError('BAD_REQUEST', `"${server}"'s tool "${request.tool}" has no app (its _meta.ui.resourceUri names no ui:// resource).`);
    }
    assertAppUri(uri!);
    const read = await this.readAppResource(server, uri!);
    const listed = connection.catalog.resources.find((r) => r.uri === uri);
    const resource = appResourceFrom(server, uri!, read, listed);
    const policy = appPolicy(resource.meta);
    const { added, evicted } = this.instances.add({
      server,
      uri: uri!,
      ...(tool ? { tool: tool.name } : {}),
      ...(request.conversationId ? { conversationId: request.conversationId } : {}),
      ...(request.toolCallId ? { toolCallId: request.toolCallId } : {}),
      policy,
      html: resource.html,
      openedAt: Date.now(),
    });
    for (const gone of evicted) {
      this.requests.withdraw(gone.id, 'The app was closed: too many apps were open at once.');
      this.record(gone, { kind: 'close', method: 'close', detail: 'closed: too many apps open at once', outcome: 'info' });
    }
    for (const entry of appOpenedEntries(resource.metaFrom, tool?.name, policy, PERMISSION_REFUSAL)) this.record(added, entry);
    return {
      instanceId: added.id,
      server,
      uri: uri!,
      sandboxUrl: sandbox.urlFor(added.id),
      html: resource.html,
      ...(tool ? { tool: { ...tool } as Record<string, unknown> } : {}),
      policy: policyView(policy),
    };
  }

  /** What the sandbox of an open app serves: its CSP, its frame's permissions, its document (undefined: no such app open). */
  sandboxPolicy(instanceId: string): { readonly csp: string; readonly allow: string; readonly html: string } | undefined {
    const instance = this.instances.get(instanceId);
    return instance ? { csp: instance.policy.csp.policy, allow: instance.policy.allow, html: instance.html } : undefined;
  }

  async callTool(instanceId: string, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const instance = this.require(instanceId);
    const detail = `${name}${argumentsSummary(args)}`;
    const step = { kind: 'request', method: 'tools/call' } as const;
    const waiting = this.begin(instance, step.method, detail, `tools/call ${name}`, `its call to "${name}"`);
    try {
      const connection = await this.deps.servers.ready(instance.server);
      const definition = connection.catalog.tools.find((t) => t.name === name);
      if (!definition) {
        this.record(instance, { ...step, detail, outcome: 'refused' });
        throw new HarborError('TOOL_NOT_FOUND', `The app of "${instance.server}" asked for the tool "${name}", which "${instance.server}" does not have. An app may call only its own server's tools.`);
      }
      if (!isCallableByApp(definition)) {
        this.record(instance, { ...step, detail, outcome: 'refused' });
        throw new HarborError('FORBIDDEN', `"${instance.server}" offers its tool "${name}" to the model only, not to its app.`);
      }
      const consent = { ...(instance.conversationId ? { conversationId: instance.conversationId } : {}), requester: appRequester(instance) };
      return await this.recorded(instance, step.method, detail, () => this.deps.calls.callTool(instance.server, name, args, { consent, signal: waiting.signal }));
    } finally {
      waiting.end();
    }
  }

  async readResource(instanceId: string, uri: string): Promise<ReadResourceResult> {
    const instance = this.require(instanceId);
    const waiting = this.begin(instance, 'resources/read', uri, `resources/read ${uri}`, `its read of ${uri}`);
    try {
      return await this.recorded(instance, 'resources/read', uri, () => this.deps.calls.readResource(instance.server, uri, { signal: waiting.signal }));
    } finally {
      waiting.end();
    }
  }

  async listTools(instanceId: string): Promise<{ tools: Record<string, unknown>[] }> {
    const instance = this.require(instanceId);
    return this.recorded(instance, 'tools/list', 'its server’s tools for apps', async () => {
      const catalog = await this.deps.calls.catalog(instance.server);
      return { tools: catalog.tools.filter(isCallableByApp).map((t) => ({ ...t }) as Record<string, unknown>) };
    });
  }

  async listResources(instanceId: string): Promise<{ resources: Record<string, unknown>[]; resourceTemplates: Record<string, unknown>[] }> {
    const instance = this.require(instanceId);
    return this.recorded(instance, 'resources/list', 'its server’s resources', async () => {
      const catalog = await this.deps.calls.catalog(instance.server);
      return {
        resources: catalog.resources.map((r) => ({ ...r }) as Record<string, unknown>),
        resourceTemplates: catalog.resourceTemplates.map((r) => ({ ...r }) as Record<string, unknown>),
      };
    });
  }

  /** A request the page settled itself (a link the person opened or not, a message, a download…). */
  recordRequest(instanceId: string, method: string, outcome: AppActivityEntry['outcome'], detail: string): boolean {
    const instance = this.instances.get(instanceId);
    if (!instance) return false;
    this.record(instance, { kind: 'request', method, detail, outcome });
    return true;
  }

  /** `ui/update-model-context`: replaces what this app told the model before, for the conversation's next turns. */
  updateModelContext(instanceId: string, content: readonly unknown[] | undefined, structuredContent: Record<string, unknown> | undefined): boolean {
    const instance = this.require(instanceId);
    if (!instance.conversationId) {
      this.record(instance, { kind: 'request', method: 'ui/update-model-context', detail: 'not in a conversation', outcome: 'refused' });
      throw new HarborError('BAD_REQUEST', 'This app is not shown in a conversation, so there is no model to tell.');
    }
    const text = contextText(content, structuredContent);
    this.contexts.set(instance.conversationId, instance.server, instance.toolCallId ?? instance.id, text);
    this.record(instance, { kind: 'request', method: 'ui/update-model-context', detail: text === '' ? 'cleared' : `${text.length} characters for the next turns`, outcome: 'allowed' });
    return true;
  }

  /** What the apps of a conversation asked the model to know (the chat reads it for each turn). */
  modelContext(conversationId: string): readonly AppModelContext[] {
    return this.contexts.get(conversationId);
  }

  close(instanceId: string): boolean {
    const instance = this.instances.delete(instanceId);
    if (!instance) return false;
    // What it still waits for ends with it: a consent question is taken down, a call is cancelled.
    this.requests.withdraw(instanceId, 'The app that asked was closed.');
    this.record(instance, { kind: 'close', method: 'close', detail: 'the frame was removed', outcome: 'info' });
    return true;
  }

  activity(afterSeq?: number): AppActivityEntry[] {
    return this.log.list(afterSeq);
  }

  /** A kept resource stays only while its server says nothing changed and runs as it did. */
  private forgetChanged(change: EventPayload<'servers.changed'>): void {
    if (change.reason === 'resourceUpdated') this.resources.forget(change.name, change.uri);
    else if (change.reason !== 'catalog' || change.changed === undefined || change.changed.includes('resources')) this.resources.forget(change.name);
  }

  private async readAppResource(server: string, uri: string): Promise<ReadResourceResult> {
    try {
      return await this.resources.through(server, uri, () => this.deps.calls.readResource(server, uri));
    } catch (error) {
      if (error instanceof HarborError && error.code !== 'PROTOCOL_ERROR' && error.code !== 'INTERNAL') throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new HarborError('PROTOCOL_ERROR', `${server} could not give its app ${uri}: ${reason}`);
    }
  }

  /** Starts a request of the app (refused, and recorded, when the app already waits for that key or for too many). */
  private begin(instance: AppInstance, method: string, detail: string, key: string, what: string): ReturnType<AppRequests['begin']> {
    try {
      return this.requests.begin(instance.id, key, what);
    } catch (error) {
      this.record(instance, { kind: 'request', method, detail: `${detail} → already waiting`, outcome: 'refused' });
      throw error;
    }
  }

  private require(instanceId: string): AppInstance {
    const instance = this.instances.get(instanceId);
    if (!instance) throw new HarborError('FORBIDDEN', 'Harbor does not know this app any more (it was closed). Show it again to use it.');
    return instance;
  }

  /** Runs a bridge request for the app and records how it ended (a denial is a refusal, a tool error a failure). */
  private async recorded<T>(instance: AppInstance, method: string, detail: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      const toolError = typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
      this.record(instance, { kind: 'request', method, detail: toolError ? `${detail} → the tool reported an error` : detail, outcome: toolError ? 'failed' : 'allowed' });
      return result;
    } catch (error) {
      const code = error instanceof HarborError ? error.code : 'INTERNAL';
      const refused = code === 'CONSENT_DENIED' || code === 'CONSENT_REQUIRED' || code === 'CONSENT_STALE' || code === 'FORBIDDEN';
      this.record(instance, { kind: 'request', method, detail: `${detail} → ${code}`, outcome: refused ? 'refused' : 'failed' });
      throw error;
    }
  }

  private record(instance: AppInstance, entry: Omit<NewAppActivity, 'server' | 'instanceId' | 'uri'>): void {
    this.log.add({ ...entry, server: instance.server, instanceId: instance.id, uri: instance.uri });
  }
}

/** An App's own call, named as such in the consent dialog: which App (its server), for which tool's result. */
function appRequester(instance: AppInstance): ConsentRequester {
  return {
    kind: 'app',
    server: instance.server,
    instanceId: instance.id,
    ...(instance.tool ? { tool: instance.tool } : {}),
    uri: instance.uri,
    ...(instance.conversationId ? { conversationId: instance.conversationId } : {}),
  };
}
