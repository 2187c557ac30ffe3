import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import type { SandboxRules } from '../registry/sandbox-config';
import { describeRefusal, type SandboxRefusal } from '../sandbox/refusals';
import type { SandboxRuntime } from '../sandbox/runtime';
import type { OpenedTransport, TransportFactory } from './connection-types';
import { withoutCredentialRedirects } from './credential-redirects';
import type { LaunchSpec } from './launch';
import { buildServerEnv } from './stdio/environment';
import { INSTANCE_ENV, hostInstanceId } from './stdio/orphans';
import { serverPath, serverWorkingFolder } from './stdio/server-path';
import { SupervisedStdioTransport, type PrepareLaunch } from './stdio/transport';
import type { TransportAuthSource } from './transport-auth';

export interface TransportFactoryDeps {
  readonly stopGraces?: { stdinGraceMs: number; termGraceMs: number };
  /** Masks secrets in a server's stderr before Harbor shows or stores any of it. */
  readonly redact?: (text: string) => string;
  /** The user's login-shell PATH (resolved once, before the first launch), so GUI launches find npx/uvx; it comes first (see server-path.ts). */
  readonly loginPathValue?: () => string | undefined;
  /** OAuth for remote servers (main/host/auth implements it): provider, watching fetch, sign-in handle. */
  readonly auth?: TransportAuthSource;
  /** Runs servers whose registry entry asks for it inside the sandbox. */
  readonly sandbox?: Pick<SandboxRuntime, 'wrap'>;
  /** Each thing the sandbox refused a server (also noted in its stderr log). */
  readonly onSandboxRefusal?: (server: string, refusal: SandboxRefusal) => void;
}

/** Opens the right transport for a launch spec: supervised stdio, Streamable HTTP, or legacy SSE. */
export function createTransportFactory(deps: TransportFactoryDeps = {}): TransportFactory {
  // Secret references in env and headers were resolved before this (the Host's prepareLaunch).
  return (spec: LaunchSpec, options): OpenedTransport => {
    if (spec.transport === 'stdio') {
      const base = process.env;
      const path = serverPath({ own: base.PATH, login: deps.loginPathValue?.() });
      const env = buildServerEnv({
        base,
        serverEnv: spec.env,
        ...(path ? { loginPath: path } : {}),
        platform: process.platform,
      });
      // Set after the server's own env, which cannot override it: it is how the next start of the
      // app tells this server's processes apart if this Harbor dies without stopping them.
      const instance = hostInstanceId();
      if (instance !== undefined) env[INSTANCE_ENV] = instance;
      const server = options.server ?? spec.command;
      const transport = new SupervisedStdioTransport(
        { command: spec.command, args: [...spec.args], env, cwd: serverWorkingFolder(spec.cwd) },
        {
          ...(deps.stopGraces ? { stopGraces: deps.stopGraces } : {}),
          ...(spec.sandbox ? { prepare: sandboxedLaunch(server, spec.sandbox, deps) } : {}),
        },
      );
      return {
        transport,
        stderrTail: () => (deps.redact ? deps.redact(transport.stderrTail(40)) : transport.stderrTail(40)),
        exitDescription: () => describeExit(transport.exitInfo),
        probeInterrupted: () => transport.probeInterrupted,
        strayOutput: () => transport.strayOutput,
        closedForStrayOutput: () => transport.closedForStrayOutput,
      };
    }
    const headers = { ...spec.headers };
    const url = new URL(spec.url);
    const auth = options.server !== undefined ? deps.auth?.(options.server, spec.url, headers) : undefined;
    // Credentials (a token, the configured headers) never follow a redirect (credential-redirects.ts).
    const fetch = withoutCredentialRedirects(auth?.fetch ?? ((input, init) => globalThis.fetch(input, init)), options.server ?? spec.url, Object.keys(headers));
    const authOptions = auth ? { authProvider: auth.provider, fetch } : { fetch };
    if (options.legacySse) {
      const transport = new SSEClientTransport(url, { requestInit: { headers }, ...authOptions });
      return { transport, stderrTail: () => '', exitDescription: () => undefined, ...(auth ? { auth: auth.bind(transport) } : {}) };
    }
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...authOptions });
    return {
      transport,
      stderrTail: () => '',
      exitDescription: () => undefined,
      endSession: () => transport.terminateSession(),
      ...(auth ? { auth: auth.bind(transport) } : {}),
    };
  };
}

/**
 * The sandbox between the configured command and the OS. Without a sandbox to run it in, the
 * start fails: a server that asks for the sandbox never runs without it.
 */
function sandboxedLaunch(server: string, rules: SandboxRules, deps: TransportFactoryDeps): PrepareLaunch {
  return async (launch, note) => {
    if (!deps.sandbox) throw new HarborError('SANDBOX_UNAVAILABLE', `Server "${server}" runs in a sandbox, and this Harbor has none to run it in. To run it without the sandbox, turn its sandbox off ("sandbox": false).`);
    const wrapped = await deps.sandbox.wrap({
      server,
      command: launch.command,
      args: launch.args ?? [],
      env: (launch.env ?? {}) as Record<string, string>,
      ...(launch.cwd ? { cwd: launch.cwd } : {}),
      rules,
      onRefusal: (refusal) => {
        note(describeRefusal(refusal));
        deps.onSandboxRefusal?.(server, refusal);
      },
    });
    return wrapped;
  };
}

function describeExit(exit: { code: number | null; signal: string | null } | undefined): string | undefined {
  if (!exit) return undefined;
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
