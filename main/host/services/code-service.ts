import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ErrorCode } from '../../../preload/contract';
import type { ChatSettings } from '../chat/settings';
import { gatherApi, type ApiSource } from '../code-mode/api-tools';
import { apiShapeOf, declareApi } from '../code-mode/declarations';
import type { CodeLimits } from '../code-mode/limits';
import type { CodeSandbox } from '../code-mode/sandbox';
import type { CodeRunEvent, CodeRunOutcome } from '../code-mode/script-run';
import type { Toolset } from '../tools/toolsets';
import type { ToolCallOptions } from './calls';

/** An enabled server the script's API leaves out, and why. */
export interface UnavailableServer {
  readonly server: string;
  readonly error: { readonly code: ErrorCode; readonly message: string };
}

export interface CodeServiceDeps {
  /** The Host's one code sandbox (the chat's run_code runs there too). */
  readonly sandbox: Pick<CodeSandbox, 'run'>;
  readonly listServers: ApiSource['listServers'];
  readonly catalog: ApiSource['catalog'];
  readonly settings: () => Pick<ChatSettings, 'codeLimits' | 'disabledTools'>;
  /** The Host's gated call door: consent decides each call, results leave through the exit. */
  readonly callTool: (server: string, tool: string, args: Record<string, unknown>, options: ToolCallOptions & { readonly signal: AbortSignal }) => Promise<CallToolResult>;
  /** How what a run reports on its way leaves the Host (the door cleans only the outcome). */
  readonly clean: <T>(value: T) => T;
}

export interface CodeRunOptions {
  readonly code: string;
  /** The API holds only this toolset's tools (`harbor exec --toolset`). */
  readonly toolset?: Toolset;
  /** Over the person's code-mode limits (settings). */
  readonly limits?: Partial<CodeLimits>;
  /** Approves each call of this run (`harbor exec --yes`); the gate still decides what is blocked. */
  readonly approveCalls?: boolean;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: CodeRunEvent) => void;
  /** Told before the script starts: enabled servers its API leaves out. */
  readonly onUnavailable?: (servers: readonly UnavailableServer[]) => void;
}

/**
 * Code mode for a front door (`harbor exec`): a program runs in the Host's code sandbox against
 * every enabled tool of every enabled server, each call through the Host's gated call door, as
 * the chat's run_code does.
 */
export class CodeService {
  constructor(private readonly deps: CodeServiceDeps) {}

  /** The TypeScript declarations of the script API, and the servers it leaves out. */
  async declarations(options: { readonly toolset?: Toolset } = {}): Promise<{ declarations: string; unavailable: UnavailableServer[] }> {
    const api = await this.gather(options.toolset);
    return { declarations: declareApi(api.tools), unavailable: api.unavailable };
  }

  /** Runs one program to its end; never rejects once started (see CodeSandbox.run). */
  async run(options: CodeRunOptions): Promise<CodeRunOutcome> {
    const api = await this.gather(options.toolset);
    options.onUnavailable?.(api.unavailable);
    const { clean } = this.deps;
    return this.deps.sandbox.run({
      code: options.code,
      api: apiShapeOf(api.tools),
      limits: { ...this.deps.settings().codeLimits, ...options.limits },
      ...(options.signal ? { signal: options.signal } : {}),
      broker: { callTool: (server, tool, args, { signal }) => this.deps.callTool(server, tool, args, { signal, consent: { approveOnce: options.approveCalls === true } }) },
      ...(options.onEvent ? { onEvent: (event: CodeRunEvent) => options.onEvent?.(clean(event)) } : {}),
    });
  }

  private async gather(toolset: Toolset | undefined) {
    const settings = this.deps.settings();
    const api = await gatherApi({ listServers: this.deps.listServers, catalog: this.deps.catalog, disabledTools: (server) => settings.disabledTools(server) }, toolset);
    return { tools: api.tools, unavailable: api.unavailable.map(({ server, error }) => ({ server, error: { code: error.code, message: error.message } })) };
  }
}
