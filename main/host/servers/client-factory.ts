import {
  Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  type Implementation,
  type jsonSchemaValidator,
} from '@modelcontextprotocol/client';
import { JsonSchemaValidator } from '../json-schema';
import { withDeclaredFeatures, type ServerFeatures } from './client-features';

/** What Harbor answers when a server asks the person for input (form or URL elicitation). */
export type ElicitationHandler = (
  request: ElicitRequest['params'],
  context: { signal: AbortSignal },
) => Promise<ElicitResult>;

export interface McpClientOptions {
  readonly clientInfo: Implementation;
  /**
   * How long the server/discover probe may take before a stdio server is taken for legacy.
   * Short on purpose: a legacy server that ignores unknown methods would otherwise stall connect
   * for the SDK's default of 60 s.
   */
  readonly probeTimeoutMs: number;
  readonly elicit: ElicitationHandler;
  /** Sampling, roots and logging for this server; without it only elicitation is offered. */
  readonly features?: ServerFeatures;
  /** Checks tools' structured results (the SDK's jsonSchemaValidator); default: one shared validator that compiles every schema. */
  readonly outputValidator?: jsonSchemaValidator;
}

/** The MCP Apps extension (a tool's interactive UI), and the one kind of UI resource Harbor renders. */
const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * What Harbor declares to every server, in both eras: form elicitation (with schema defaults
 * applied), URL elicitation, and the MCP Apps extension with the MIME types Harbor renders (servers
 * may offer UI tools only to hosts that declare it). Exported for the per-call benchmark, whose
 * bare SDK client declares the same.
 */
export const HARBOR_CLIENT_CAPABILITIES: Readonly<ClientCapabilities> = {
  elicitation: { form: { applyDefaults: true }, url: {} },
  extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } },
};

/**
 * The one place Harbor's client policy lives: always negotiate the era (the SDK's default is
 * legacy-only!), declare form + URL elicitation with schema defaults applied, route every
 * elicitation — legacy server→client request or modern `input_required` round — to the Host, and
 * check structured results with a validator whose regexes run in linear time (a server's
 * outputSchema `pattern` must not be able to freeze the host).
 */
/**
 * One output validator for every client not given one (the Host gives its own): it holds nothing but
 * compiled schemas (keyed by their text), so sharing it costs nothing and saves an Ajv engine per
 * server when many are connected.
 */
let sharedOutputValidator: jsonSchemaValidator | undefined;

export function createMcpClient(options: McpClientOptions): Client {
  const { features } = options;
  const declared = features?.declared();
  const client = new Client(options.clientInfo, {
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
    capabilities: withDeclaredFeatures(structuredClone(HARBOR_CLIENT_CAPABILITIES), declared),
    jsonSchemaValidator: options.outputValidator ?? (sharedOutputValidator ??= new JsonSchemaValidator().forSdk()),
  });
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    const signal = (ctx as { mcpReq?: { signal?: AbortSignal } } | undefined)?.mcpReq?.signal ?? new AbortController().signal;
    return options.elicit(request.params, { signal });
  });
  if (features) registerFeatureHandlers(client, features, declared!);
  return client;
}

/** The handlers behind what `declared` offers (the SDK refuses a handler for an undeclared capability), and log messages. */
function registerFeatureHandlers(client: Client, features: ServerFeatures, declared: ReturnType<ServerFeatures['declared']>): void {
  if (declared.sampling) {
    client.setRequestHandler('sampling/createMessage', (request, ctx) => features.sample(request.params, { signal: requestSignal(ctx) }));
  }
  if (declared.roots) client.setRequestHandler('roots/list', () => ({ roots: features.listRoots() }));
  client.setNotificationHandler('notifications/message', (notification) => features.logged(notification.params));
}

function requestSignal(ctx: unknown): AbortSignal {
  return (ctx as { mcpReq?: { signal?: AbortSignal } } | undefined)?.mcpReq?.signal ?? new AbortController().signal;
}
