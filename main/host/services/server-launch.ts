import { join } from 'node:path';
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { LogSink } from '../log/harbor-log';
import type { AuthService } from '../auth/service';
import type { ConsentGate } from '../consent/gate';
import { serverRef } from '../consent/identity';
import type { Redactor } from '../secrets/redactor';
import type { SandboxRefusal } from '../sandbox/refusals';
import type { SandboxRuntime } from '../sandbox/runtime';
import { resolveLaunchSecrets } from '../secrets/references';
import type { SecretStore } from '../secrets/store';
import type { ServerFeatures } from '../servers/client-features';
import type { ElicitationBroker } from '../servers/elicitation';
import { EraCache } from '../servers/era-cache';
import { ServerManager, type ServerManagerDeps } from '../servers/manager';
import { needsPathLookup } from '../servers/stdio/path-lookup';
import type { ProcessReaper } from '../servers/stdio/reaper';
import type { TrafficLog } from '../servers/traffic';
import { createTransportFactory } from '../servers/transports';
import type { HostOptions } from './host-options';
import type { LoginPathCache } from './login-path';

export interface ServerLaunchDeps {
  readonly traffic: TrafficLog;
  readonly elicitation: ElicitationBroker;
  readonly auth: AuthService;
  readonly consent: ConsentGate;
  readonly secrets: SecretStore;
  readonly redactor: Redactor;
  readonly loginPath: LoginPathCache;
  /** Sampling, roots and logging offered to each server. */
  readonly features?: (server: string) => ServerFeatures;
  /** Checks tools' structured results (the Host's one JsonSchemaValidator, as the SDK takes it). */
  readonly outputValidator?: jsonSchemaValidator;
  readonly sandbox: SandboxRuntime;
  readonly onSandboxRefusal: (server: string, refusal: SandboxRefusal) => void;
  /** Harbor's own log. */
  readonly log?: LogSink;
  /** Kills stdio servers' process groups if Harbor dies without stopping them. */
  /** Absent only when HostOptions.reaper is false (the benchmark's arm without it). */
  readonly reaper: ProcessReaper | undefined;
  /** The stop ladder's graces, asked at each stop (shorter once the person interrupted Harbor). */
  readonly stopGraces: () => { stdinGraceMs: number; termGraceMs: number } | undefined;
}

/**
 * The ServerManager as the Host runs it: real transports (unless a test injects its own), OAuth
 * for remote servers, launch consent (stdio command lines, remote URLs), and — for every launch,
 * automatic restarts included — the login-shell PATH awaited (when the command is looked up on it), each referenced secret checked to
 * belong to the server, and `${secret:…}` values read from the store in main, joining the
 * redactor before the server that gets them starts.
 */
export function createServerManager(options: HostOptions, deps: ServerLaunchDeps, onChange: ServerManagerDeps['onChange']): ServerManager {
  return new ServerManager(new Map(), {
    clientInfo: { name: 'harbor', version: options.appVersion },
    eraCache: new EraCache(join(options.dataDir, 'era-cache.json')),
    traffic: deps.traffic,
    openTransport:
      options.openTransport ??
      createTransportFactory({
        auth: (server, url, headers) => deps.auth.forTransport(server, url, headers),
        loginPathValue: () => deps.loginPath.current,
        redact: (text) => deps.redactor.redact(text),
        sandbox: deps.sandbox,
        onSandboxRefusal: deps.onSandboxRefusal,
        ...(deps.reaper ? { reaper: deps.reaper } : {}),
        stopGraces: deps.stopGraces,
      }),
    elicitation: deps.elicitation,
    variables: { ...options.launchVariables, data: options.dataDir },
    probeTimeoutMs: options.probeTimeoutMs ?? 4_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    ...(options.catalogOnConnect ? { catalogOnConnect: options.catalogOnConnect } : {}),
    ...(options.restart ? { restart: options.restart } : {}),
    authorizeLaunch: (name, trusted, spec, config) => deps.consent.authorizeLaunch({ server: serverRef(name, config), trusted, config, spec }),
    prepareLaunch: async (name, spec, config) => {
      await deps.consent.authorizeSecrets({ server: serverRef(name, config), trusted: config.trusted === true, config, spec });
      // A command run by its absolute path starts at once, with the PATH known or remembered so far.
      if (spec.transport === 'stdio' && needsPathLookup(spec.command)) await deps.loginPath.whenReady();
      return resolveLaunchSecrets(name, spec, { store: deps.secrets, redactor: deps.redactor });
    },
    ...(deps.features ? { features: deps.features } : {}),
    ...(deps.outputValidator ? { outputValidator: deps.outputValidator } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    signInStatus: (name) => deps.auth.status(name),
    onChange,
  });
}
