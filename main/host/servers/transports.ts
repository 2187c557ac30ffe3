import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TransportAuthParts } from '../auth/service';
import type { OpenedTransport, TransportFactory } from './connection';
import type { LaunchSpec } from './launch';
import type { LoginShellPath } from './stdio/environment';
import { buildServerEnv } from './stdio/environment';
import { INSTANCE_ENV, hostInstanceId } from './stdio/orphans';
import { SupervisedStdioTransport } from './stdio/transport';

export interface TransportFactoryDeps {
  /** The user's login-shell PATH (resolved once), so GUI launches find npx/uvx. */
  readonly loginPath?: LoginShellPath;
  readonly baseEnv?: NodeJS.ProcessEnv;
  readonly stopGraces?: { stdinGraceMs: number; termGraceMs: number };
  /** Resolves `${secret:…}` and similar references in env and headers (secrets issue). */
  readonly resolveValue?: (value: string) => string;
  /** Masks secrets in a server's stderr before Harbor shows or stores any of it (secrets issue). */
  readonly redact?: (text: string) => string;
  /** Cached login PATH, resolved before the first launch. */
  readonly loginPathValue?: () => string | undefined;
  /** Written into every stdio server's environment (default: this process's own instance id). */
  readonly instanceId?: string;
  /** OAuth for remote servers (AuthService.forTransport): provider, watching fetch, sign-in handle. */
  readonly auth?: (server: string, url: string, headers: Readonly<Record<string, string>>) => TransportAuthParts | undefined;
}

/** Opens the right transport for a launch spec: supervised stdio, Streamable HTTP, or legacy SSE. */
export function createTransportFactory(deps: TransportFactoryDeps = {}): TransportFactory {
  const resolve = deps.resolveValue ?? ((v: string) => v);
  return (spec: LaunchSpec, options): OpenedTransport => {
    if (spec.transport === 'stdio') {
      const base = deps.baseEnv ?? process.env;
      const loginPath = mergePaths(base.PATH, deps.loginPathValue?.());
      const env = buildServerEnv({
        base,
        serverEnv: Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, resolve(v)])),
        ...(loginPath ? { loginPath } : {}),
        platform: process.platform,
      });
      // Set after the server's own env, which cannot override it: it is how the next start of the
      // app tells this server's processes apart if this Harbor dies without stopping them.
      const instance = deps.instanceId ?? hostInstanceId();
      if (instance !== undefined) env[INSTANCE_ENV] = instance;
      const transport = new SupervisedStdioTransport(
        { command: spec.command, args: [...spec.args], env, ...(spec.cwd ? { cwd: spec.cwd } : {}) },
        deps.stopGraces ? { stopGraces: deps.stopGraces } : {},
      );
      return {
        transport,
        stderrTail: () => (deps.redact ? deps.redact(transport.stderrTail(40)) : transport.stderrTail(40)),
        exitDescription: () => describeExit(transport.exitInfo),
      };
    }
    const headers = Object.fromEntries(Object.entries(spec.headers).map(([k, v]) => [k, resolve(v)]));
    const url = new URL(spec.url);
    const auth = options.server !== undefined ? deps.auth?.(options.server, spec.url, headers) : undefined;
    const authOptions = auth ? { authProvider: auth.provider, fetch: auth.fetch } : {};
    const transport = options.legacySse
      ? new SSEClientTransport(url, { requestInit: { headers }, ...authOptions })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...authOptions });
    return { transport, stderrTail: () => '', exitDescription: () => undefined, ...(auth ? { auth: auth.bind(transport) } : {}) };
  };
}

/**
 * The PATH a stdio server gets: Harbor's own PATH first (a terminal launch behaves like the
 * terminal), then whatever the login shell adds (a GUI launch still finds npx, uvx, brew's bin).
 */
export function mergePaths(own: string | undefined, login: string | undefined, separator = process.platform === 'win32' ? ';' : ':'): string | undefined {
  if (!login) return own;
  const parts = [...(own ?? '').split(separator), ...login.split(separator)].filter(Boolean);
  return [...new Set(parts)].join(separator);
}

function describeExit(exit: { code: number | null; signal: string | null } | undefined): string | undefined {
  if (!exit) return undefined;
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
