// The client command for the official MCP conformance suite (`npm run conformance`): it drives
// Harbor's own ServerConnection — era policy, client capabilities, elicitation routing, traffic
// tap, transports — against the suite's mock server, so the suite tests Harbor's wrapper and not a
// bare SDK client. Built to test/output/conformance/client.mjs by vite.conformance.config.ts; it is
// never part of the app.
//
// The runner appends the mock server's URL as the last argument and sets
// MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT (JSON) and MCP_CONFORMANCE_PROTOCOL_VERSION.
// Harbor negotiates the era itself ('auto'), so the protocol version is only logged.
//
// auth/* scenarios run through Harbor's own OAuth provider (main/host/auth) in `automatic` sign-in
// mode: the authorization URL goes to a headless browser that follows the mock authorization
// server's redirects to Harbor's loopback callback listener, exactly where a person's browser
// would land. Tokens live in an in-memory SecretStore.
//
// The auth extensions (machine and enterprise sign-in, DPoP) are configured the way a person
// configures them: a registry `oauth` entry (checked by the registry schema) whose keys, secrets
// and tokens are `${secret:…}` references, with the values the scenario hands out put in the
// secret store first, as `harbor secret set` would (conformance-oauth.ts).
import { AuthService } from '../../main/host/auth/service';
import { headlessBrowser } from '../../main/host/auth/opener';
import { MemorySecretStore } from '../../main/host/secrets/memory-store';
import { RestartPolicy } from '../../main/host/servers/backoff';
import { ServerConnection } from '../../main/host/servers/connection';
import { EraCache } from '../../main/host/servers/era-cache';
import { TrafficLog } from '../../main/host/servers/traffic';
import { createTransportFactory } from '../../main/host/servers/transports';
import type { Catalog } from '../../main/host/servers/catalog';
import { conformanceOAuth, type OAuthScenarioContext } from './conformance-oauth';

interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

interface ScenarioContext extends OAuthScenarioContext {
  readonly toolCalls?: readonly ToolCall[];
}

/** What the conformance suite's CIMD scenario accepts as Harbor's client metadata document URL. */
const CONFORMANCE_CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const MRTR_TOOLS = ['test_mrtr_echo_state', 'test_mrtr_unrelated', 'test_mrtr_no_state', 'test_mrtr_no_result_type'];

const SCHEMA_ECHO_TOOL = 'json_schema_echo';

const log = (line: string): void => {
  process.stderr.write(`[harbor-conformance] ${line}\n`);
};

function parseContext(text: string | undefined): ScenarioContext {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as ScenarioContext) : {};
  } catch {
    log(`MCP_CONFORMANCE_CONTEXT is not JSON; ignoring it`);
    return {};
  }
}

/** The calls a scenario expects from a client, given what the server offers. */
function plan(scenario: string, context: ScenarioContext, catalog: Catalog): Array<(c: ServerConnection) => Promise<unknown>> {
  if (context.toolCalls && context.toolCalls.length > 0) {
    return context.toolCalls.map((call) => (c) => c.callTool(call.name, call.arguments ?? {}));
  }
  if (scenario.startsWith('sep-2322')) {
    return MRTR_TOOLS.map((name) => (c) => c.callTool(name, {}));
  }
  if (scenario === 'json-schema-2020-12-preservation') {
    // Echo the focal tool's inputSchema exactly as Harbor's catalog holds it: the suite checks
    // that no JSON Schema 2020-12 keyword was lost on the way in.
    const focal = catalog.tools.find((t) => t.name !== SCHEMA_ECHO_TOOL);
    return focal ? [(c) => c.callTool(SCHEMA_ECHO_TOOL, { schema: focal.inputSchema })] : [];
  }
  const steps: Array<(c: ServerConnection) => Promise<unknown>> = [];
  const firstTool = catalog.tools[0];
  if (firstTool) steps.push((c) => c.callTool(firstTool.name, scenario.startsWith('auth/') ? {} : { a: 2, b: 3 }));
  if (scenario === 'http-standard-headers') {
    const resource = catalog.resources[0];
    if (resource) steps.push((c) => c.readResource(resource.uri));
    const prompt = catalog.prompts[0];
    if (prompt) {
      const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'conformance']));
      steps.push((c) => c.getPrompt(prompt.name, args));
    }
  }
  return steps;
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!url || !/^https?:\/\//.test(url)) {
    log('usage: client.mjs <server-url> (the conformance runner appends it)');
    return 2;
  }
  const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);
  log(`scenario=${scenario} url=${url} runner-version=${process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '-'}`);

  // The JSON-RPC traffic as Harbor's own tap sees it: stderr.txt of each result shows what was sent.
  const traffic = new TrafficLog();
  traffic.onEntry((entry) => log(`${entry.direction === 'out' ? '→' : '←'} ${entry.text.slice(0, 400)}`));
  const { oauth, secrets: secretValues } = conformanceOAuth(scenario, url, context);
  if (oauth) log(`oauth ${JSON.stringify(oauth)}`);
  const secrets = new MemorySecretStore(secretValues);
  const auth = new AuthService({
    secrets,
    clientName: 'harbor-conformance',
    signIn: 'automatic',
    opener: async (authorizationUrl) => {
      log(`sign-in page: ${authorizationUrl.origin}${authorizationUrl.pathname}`);
      await headlessBrowser()(authorizationUrl);
    },
    callbackTimeoutMs: 15_000,
    ...(scenario === 'auth/basic-cimd' ? { clientMetadataUrl: CONFORMANCE_CIMD_URL } : {}),
    serverConfig: () => oauth,
  });
  const connection = new ServerConnection(
    'conformance',
    { transport: 'http', url, headers: {}, legacySse: false },
    {
      clientInfo: { name: 'harbor-conformance', version: '0.0.0' },
      eraCache: new EraCache(undefined),
      traffic,
      openTransport: createTransportFactory({ auth: (server, serverUrl, headers) => auth.forTransport(server, serverUrl, headers) }),
      // Stands in for the person: accept, with the field the suite's servers ask for. Schema
      // defaults for the rest are filled in by the SDK (applyDefaults in client-factory.ts).
      elicit: async () => ({ action: 'accept', content: { confirmed: true } }),
      restartPolicy: new RestartPolicy({ maxAttempts: 0 }),
      // The runner starts every scenario's client at once (~40 Node processes on two cores here),
      // so connects take seconds; its own per-scenario limit is 30 s. In auth/* scenarios the
      // whole sign-in (discovery, registration, the headless browser) runs inside the first request.
      probeTimeoutMs: 25_000,
      connectTimeoutMs: 25_000,
      onChange: (change) => {
        if (change.kind === 'state') log(`state ${JSON.stringify(change.state)}`);
      },
    },
  );
  try {
    const t0 = Date.now();
    try {
      await connection.whenReady();
      log(`connected in ${Date.now() - t0} ms`);
    } catch (error) {
      log(`connect failed: ${describe(error)}`);
      return 1;
    }
    const { era, protocolVersion } = connection.info;
    log(`ready: era=${era ?? '?'} protocolVersion=${protocolVersion ?? '?'} tools=${connection.catalog.tools.length}`);
    for (const step of plan(scenario, context, connection.catalog)) {
      try {
        const result = await step(connection);
        log(`ok ${JSON.stringify(result).slice(0, 300)}`);
      } catch (error) {
        // One failing call does not stop the rest: the suite judges the traffic of all of them.
        log(`call failed: ${describe(error)}`);
      }
    }
    return 0;
  } finally {
    await connection.dispose();
    await auth.dispose();
  }
}

function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
    if (!(e instanceof Error)) {
      parts.push(String(e));
      break;
    }
    const code = (e as { code?: unknown }).code;
    parts.push(`${code !== undefined ? `[${String(code)}] ` : ''}${e.message}`);
    e = e.cause;
  }
  return parts.join(' <- ');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
