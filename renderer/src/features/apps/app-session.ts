import type { CallToolResult } from '@modelcontextprotocol/client';
import { AppBridge, type McpUiDisplayMode, type McpUiHostCapabilities, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { appStoppedReason, type AppView, type HarborApi, type Result } from '../../../../preload/contract';
import { FrameTransport, sandboxOrigin } from './frame-transport';
import { downloadFiles, messageText, type PersonAnswer, type PersonRequest } from './person-requests';

export interface AppConversation {
  readonly id: string;
  /** Sends the person-approved text as their next message; false when it could not be sent. */
  send(text: string): Promise<boolean>;
}

export interface AppSessionOptions {
  readonly api: HarborApi;
  readonly view: AppView;
  readonly frame: HTMLIFrameElement;
  readonly hostVersion: string;
  readonly context: McpUiHostContext;
  /** The conversation the app is shown in (none in the Tools view: no messages, no model context). */
  readonly conversation?: AppConversation;
  /** Asks the person (a dialog); resolves with their answer. */
  readonly ask: (request: PersonRequest) => Promise<PersonAnswer>;
  readonly onSize: (size: { width?: number; height?: number }) => void;
  /** Switches the frame to a mode the app asked for (if allowed) and returns the mode it is in now. */
  readonly onDisplayMode: (mode: McpUiDisplayMode, appModes: readonly McpUiDisplayMode[] | undefined) => McpUiDisplayMode;
  readonly onInitialized: () => void;
  readonly onNavigated: () => void;
  /** The app sent more than it may (rate, size): it is stopped; `reason` says what it did. */
  readonly onStopped: (reason: string) => void;
  readonly onTeardownRequested: () => void;
}

/** How long an app gets to answer ui/resource-teardown before its frame goes anyway. */
const TEARDOWN_TIMEOUT_MS = 500;
/** Log lines kept from one app per window; more are counted, not recorded. */
const LOG_BURST = 20;
const LOG_WINDOW_MS = 10_000;

type Pending =
  | { readonly kind: 'partial'; readonly args: Record<string, unknown> }
  | { readonly kind: 'input'; readonly args: Record<string, unknown> }
  | { readonly kind: 'result'; readonly result: CallToolResult }
  | { readonly kind: 'cancelled'; readonly reason: string };

function valueOf<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new Error(result.error.message);
}

/**
 * One app's bridge, on the SDK's host-side AppBridge: the app's requests go to the Host through
 * the contract (which keeps them to the app's own server and records each one), what only the
 * person may allow goes through `ask`, and what the app is shown (tool input, partial input,
 * result, cancellation) waits until the app said it is initialized, as the specification requires.
 */
export class AppSession {
  private readonly bridge: AppBridge;
  private readonly transport: FrameTransport;
  private initialized = false;
  private closed = false;
  private readonly queue: Pending[] = [];
  private inputSent = false;
  private outcomeSent = false;
  private pendingContext: McpUiHostContext | undefined;
  private logWindow = { start: 0, count: 0, dropped: 0 };
  private readonly offToolsChanged: () => void;

  private constructor(private readonly options: AppSessionOptions) {
    const { api, view, conversation } = options;
    this.bridge = new AppBridge(null, { name: 'Harbor', version: options.hostVersion }, capabilities(view, conversation !== undefined), {
      hostContext: options.context,
    });
    const target = options.frame.contentWindow;
    if (!target) throw new Error('the app frame has no window');
    this.transport = new FrameTransport(
      target,
      sandboxOrigin(view.sandboxUrl),
      () => this.options.onNavigated(),
      (limit) => {
        const reason = appStoppedReason(limit);
        this.record('stopped', 'refused', `stopped: ${reason}`);
        this.options.onStopped(reason);
      },
    );
    const id = { instanceId: view.instanceId };
    const bridge = this.bridge;

    bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: view.html });
    bridge.oninitialized = () => this.onInitialized();
    bridge.onsizechange = (size) => options.onSize(size);
    bridge.onrequestteardown = () => {
      this.record('ui/notifications/request-teardown', 'info', 'the app asked to be closed');
      options.onTeardownRequested();
    };
    bridge.oncalltool = async (params) => valueOf(await api.apps.callTool({ ...id, name: params.name, ...(params.arguments ? { arguments: params.arguments } : {}) })) as CallToolResult;
    bridge.setRequestHandler('tools/list', async () => valueOf(await api.apps.listTools(id)) as never);
    bridge.onreadresource = async (params) => valueOf(await api.apps.readResource({ ...id, uri: params.uri })) as never;
    bridge.onlistresources = async () => ({ resources: valueOf(await api.apps.listResources(id)).resources }) as never;
    bridge.onlistresourcetemplates = async () => ({ resourceTemplates: valueOf(await api.apps.listResources(id)).resourceTemplates }) as never;
    bridge.onopenlink = async ({ url }) => {
      const answer = await options.ask({ kind: 'link', url });
      this.record('ui/open-link', answer.allowed ? 'allowed' : 'refused', url);
      return answer.allowed ? {} : { isError: true };
    };
    bridge.onmessage = async (params) => {
      const { text, omitted } = messageText(params.content);
      if (!conversation || text === '') {
        this.record('ui/message', 'refused', conversation ? 'an empty message' : 'not shown in a conversation');
        return { isError: true };
      }
      const answer = await options.ask({ kind: 'message', text, omitted });
      const sent = answer.allowed && (await conversation.send(text));
      this.record('ui/message', !answer.allowed ? 'refused' : sent ? 'allowed' : 'failed', text);
      return sent ? {} : { isError: true };
    };
    bridge.ondownloadfile = async (params) => {
      let files;
      try {
        files = downloadFiles(params.contents);
      } catch (error) {
        this.record('ui/download-file', 'refused', error instanceof Error ? error.message : String(error));
        return { isError: true };
      }
      const answer = await options.ask({ kind: 'download', ...files });
      const names = files.files.map((f) => f.name).join(', ') || `${files.links.length} link(s)`;
      this.record('ui/download-file', answer.allowed ? 'allowed' : 'refused', `${names}${answer.saved !== undefined ? ` (${answer.saved} saved)` : ''}`);
      return answer.allowed ? {} : { isError: true };
    };
    bridge.onrequestdisplaymode = async ({ mode }) => {
      const applied = options.onDisplayMode(mode, bridge.getAppCapabilities()?.availableDisplayModes);
      this.record('ui/request-display-mode', applied === mode ? 'allowed' : 'refused', applied === mode ? mode : `${mode} (stays ${applied})`);
      return { mode: applied };
    };
    bridge.onupdatemodelcontext = async (params) => {
      valueOf(
        await api.apps.updateModelContext({
          ...id,
          ...(params.content ? { content: params.content } : {}),
          ...(params.structuredContent ? { structuredContent: params.structuredContent } : {}),
        }),
      );
      return {};
    };
    bridge.onloggingmessage = (params) => this.log(params.level, params.data);
    // The server's tool list changed: an app that lists tools hears it (they are its server's).
    this.offToolsChanged = api.on.servers.changed((change) => {
      if (this.initialized && change.name === view.server && change.reason === 'catalog' && change.changed?.includes('tools')) void bridge.sendToolListChanged();
    });
  }

  /** Connects the bridge to the frame, then loads the sandbox (whose first message is "ready"). */
  static async start(options: AppSessionOptions, sandboxQuery: string): Promise<AppSession> {
    const session = new AppSession(options);
    await session.bridge.connect(session.transport);
    options.frame.src = `${options.view.sandboxUrl}?${sandboxQuery}`;
    return session;
  }

  partialInput(args: Record<string, unknown>): void {
    if (!this.inputSent) this.push({ kind: 'partial', args });
  }

  input(args: Record<string, unknown>): void {
    if (this.inputSent) return;
    this.inputSent = true;
    this.push({ kind: 'input', args });
  }

  /** The call's outcome: sent once (a reloaded conversation hands the same result over again). */
  result(result: CallToolResult): void {
    if (this.outcomeSent) return;
    this.outcomeSent = true;
    this.push({ kind: 'result', result });
  }

  cancelled(reason: string): void {
    if (this.outcomeSent) return;
    this.outcomeSent = true;
    this.push({ kind: 'cancelled', reason });
  }

  /**
   * The page changed (theme, size, display mode): the app hears only what differs — and nothing
   * before it is initialized (the specification forbids it); it gets the latest then.
   */
  updateContext(context: McpUiHostContext): void {
    if (this.closed) return;
    if (this.initialized) this.bridge.setHostContext(context);
    else this.pendingContext = context;
  }

  /**
   * Ends the app: asks it to wind down (ui/resource-teardown, briefly awaited when `graceful`, so
   * it may still save its state through its server), tells the Host the app is gone (from then on
   * anything it still asks is refused), and cuts the bridge — without waiting for requests the app
   * left open (one may be waiting for the person's consent).
   */
  async close(reason: string, graceful: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.offToolsChanged();
    if (this.initialized) {
      const teardown = this.bridge.teardownResource({ reason } as never, { timeout: TEARDOWN_TIMEOUT_MS }).catch(() => undefined);
      if (graceful) await teardown;
    }
    await this.options.api.apps.close({ instanceId: this.options.view.instanceId });
    void this.bridge.close().catch(() => undefined);
  }

  private onInitialized(): void {
    this.initialized = true;
    const app = this.bridge.getAppVersion();
    const modes = this.bridge.getAppCapabilities()?.availableDisplayModes;
    this.record('ui/initialize', 'allowed', `${app ? `${app.name} ${app.version}` : 'the app'}${modes?.length ? `, display modes ${modes.join(', ')}` : ''}`);
    this.options.onInitialized();
    if (this.pendingContext) this.bridge.setHostContext(this.pendingContext);
    for (const pending of this.queue.splice(0)) this.deliver(pending);
  }

  private push(pending: Pending): void {
    if (this.closed) return;
    if (this.initialized) {
      this.deliver(pending);
      return;
    }
    // Before the app is ready only the newest partial input matters.
    if (pending.kind === 'partial' && this.queue.at(-1)?.kind === 'partial') this.queue[this.queue.length - 1] = pending;
    else this.queue.push(pending);
  }

  private deliver(pending: Pending): void {
    switch (pending.kind) {
      case 'partial':
        void this.bridge.sendToolInputPartial({ arguments: pending.args });
        break;
      case 'input':
        void this.bridge.sendToolInput({ arguments: pending.args });
        break;
      case 'result':
        void this.bridge.sendToolResult(pending.result);
        break;
      case 'cancelled':
        void this.bridge.sendToolCancelled({ reason: pending.reason });
        break;
    }
  }

  private log(level: string, data: unknown): void {
    const now = Date.now();
    if (now - this.logWindow.start > LOG_WINDOW_MS) {
      if (this.logWindow.dropped > 0) this.record('notifications/message', 'info', `${this.logWindow.dropped} more log line(s) not recorded`);
      this.logWindow = { start: now, count: 0, dropped: 0 };
    }
    if (this.logWindow.count >= LOG_BURST) {
      this.logWindow.dropped += 1;
      return;
    }
    this.logWindow.count += 1;
    let text: string;
    try {
      text = typeof data === 'string' ? data : JSON.stringify(data);
    } catch {
      text = String(data);
    }
    // Cut before joining: joining first copies the whole text (an app may send megabytes) to keep 2,000 characters.
    this.record('notifications/message', 'info', `${level}: ${text.slice(0, 2000)}`);
  }

  private record(method: string, outcome: 'allowed' | 'refused' | 'failed' | 'info', detail: string): void {
    void this.options.api.apps.record({ instanceId: this.options.view.instanceId, method, outcome, detail: detail.slice(0, 2000) });
  }
}

/** What Harbor offers an app: its own server's tools and resources, links, downloads, logging; messages and model context only in a conversation. */
function capabilities(view: AppView, inConversation: boolean): McpUiHostCapabilities {
  const { csp, permissions } = view.policy;
  return {
    openLinks: {},
    downloadFile: {},
    serverTools: { listChanged: true },
    serverResources: {},
    logging: {},
    ...(inConversation ? { message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } } : {}),
    sandbox: {
      csp,
      ...(permissions.granted.includes('clipboardWrite') ? { permissions: { clipboardWrite: {} } } : {}),
    },
  };
}
