import type { ElicitRequest, ElicitResult, Implementation, jsonSchemaValidator, ServerCapabilities, Transport } from '@modelcontextprotocol/client';
import type { LogSink } from '../log/harbor-log';
import type { ConnectionState, ElicitationOrigin, Era } from '../../../preload/contract';
import type { RestartPolicy } from './backoff';
import type { CatalogKind } from './catalog';
import type { ServerFeatures } from './client-features';
import type { EraCache } from './era-cache';
import type { LaunchSpec } from './launch';
import type { RequestScope } from './request-scope';
import type { TrafficLog } from './traffic';
import type { TransportAuth } from './transport-auth';

/** A transport opened for one connection attempt, with what Harbor knows about its process. */
export interface OpenedTransport {
  readonly transport: Transport;
  /** Recent stderr lines (stdio), shown with every failure. */
  stderrTail(): string;
  /** "exited with code 1" once a process has ended. */
  exitDescription(): string | undefined;
  /** Stdio: the process ended while the era probe (`server/discover`) was unanswered. */
  probeInterrupted?(): boolean;
  /** Stdio: the first line the server wrote on stdout that was not MCP, before any MCP message. */
  strayOutput?(): string | undefined;
  /** Stdio: the transport closed because the server wrote non-MCP output and answered nothing. */
  closedForStrayOutput?(): boolean;
  /** Streamable HTTP: ends the server-side session, if one was opened (HTTP DELETE with its Mcp-Session-Id). */
  endSession?(): Promise<void>;
  /** OAuth sign-in for a remote server (the port main/host/auth implements); absent for stdio and static-header servers. */
  readonly auth?: TransportAuth;
}

/**
 * A server asks the person for input. `request` is the request of Harbor's it belongs to, when
 * that can be told (see InFlightRequests.attribute); absent, the question belongs to no known
 * request and is shown on its own, naming the server.
 */
export type ServerElicitationHandler = (
  request: ElicitRequest['params'],
  context: { readonly signal: AbortSignal; readonly request?: RequestScope; readonly afterFailure?: boolean },
) => Promise<ElicitResult>;

export type TransportFactory = (spec: LaunchSpec, options: { legacySse: boolean; server?: string }) => OpenedTransport;

export interface ConnectionDeps {
  readonly clientInfo: Implementation;
  readonly eraCache: EraCache;
  readonly traffic: TrafficLog;
  readonly openTransport: TransportFactory;
  readonly elicit: ServerElicitationHandler;
  /** The server says a page it asked the person to open is finished (`notifications/elicitation/complete`). */
  readonly pageDone?: (elicitationId: string) => void;
  readonly restartPolicy: RestartPolicy;
  readonly probeTimeoutMs: number;
  /** Timeout of connect and of list requests. */
  readonly connectTimeoutMs: number;
  /** The lists a connect fetches (default: all); see CatalogSyncOptions.connectKinds. */
  readonly catalogOnConnect?: readonly CatalogKind[];
  readonly onChange: (change: ConnectionChange) => void;
  /** The launch consent gate: throws when the person has not approved starting this server. */
  readonly authorizeLaunch?: (spec: LaunchSpec) => Promise<void>;
  /** Resolves `${secret:…}` references: the spec actually launched, built per attempt. */
  readonly prepareLaunch?: (spec: LaunchSpec) => Promise<LaunchSpec>;
  /** Sampling, roots and logging offered to this server (absent: elicitation only). */
  readonly features?: ServerFeatures;
  /** Checks tools' structured results (the SDK's jsonSchemaValidator); default: one shared validator that compiles every schema. */
  readonly outputValidator?: jsonSchemaValidator;
  /** Harbor's own log: failures no caller waits for (a refresh after list_changed, a resubscription) go there. */
  readonly log?: LogSink;
  readonly now?: () => number;
}

export type ConnectionChange =
  | { readonly kind: 'state'; readonly state: ConnectionState }
  | { readonly kind: 'catalog'; readonly changed: readonly CatalogKind[] }
  | { readonly kind: 'resourceUpdated'; readonly uri: string }
  /** Lists whose refresh failed were marked stale, or the mark went away (see stale-lists.ts). */
  | { readonly kind: 'stale' };

export interface CallOptions {
  /** The caller's abort (Stop in the UI, Ctrl-C in the CLI): reported as CANCELLED. */
  readonly signal?: AbortSignal;
  /** Per-request timeout, reset by progress. */
  readonly timeoutMs?: number;
  /** Hard ceiling over the whole call, progress or not. */
  readonly maxTotalMs?: number;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The chat tool call this request runs for: a server's question during it is shown with that call. */
  readonly origin?: ElicitationOrigin;
}

export interface ConnectionInfo {
  readonly era?: Era;
  readonly protocolVersion?: string;
  readonly serverInfo?: { name: string; version: string };
  readonly instructions?: string;
  readonly capabilities?: ServerCapabilities;
}
