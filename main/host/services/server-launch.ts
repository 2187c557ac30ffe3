import { join } from 'node:path';
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
import { LoginShellPath } from '../servers/stdio/environment';
import type { TrafficLog } from '../servers/traffic';
import { createTransportFactory } from '../servers/transports';
import type { HostOptions } from './host-options';

/**
 * The login shell's PATH for stdio servers (an app started from a desktop lacks the shell's own):
 * resolved once, in the background, so only launching a stdio server waits for it. The app warms
 * it up at start; a CLI command asks for it at its first stdio launch, so one that launches none
 * (`harbor tools` of remote servers, `info`, `secret …`) never starts a login shell and waits for it.
 */
export class LoginPathCache {
  private value: string | undefined;
  private ready: Promise<void> | undefined;

  constructor(
    /** False: stdio servers get the process's own PATH (Windows, tests, benchmarks). */
    private readonly enabled: boolean,
    private readonly path = new LoginShellPath(),
  ) {}

  /** Starts resolving now, unless it has started; a failure leaves the PATH as the process has it. */
  warmUp(): void {
    if (!this.enabled || this.ready) return;
    this.ready = this.path.resolve().then(
      (value) => {
        this.value = value;
      },
      () => undefined,
    );
  }

  /** Resolves once the PATH is known (or given up on), starting the lookup if nothing did yet. */
  whenReady(): Promise<void> {
    this.warmUp();
    return this.ready ?? Promise.resolve();
  }

  get current(): string | undefined {
    return this.value;
  }
}

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
  readonly sandbox: SandboxRuntime;
  readonly onSandboxRefusal: (server: string, refusal: SandboxRefusal) => void;
  /** Harbor's own log. */
  readonly log?: LogSink;
}

/**
 * The ServerManager as the Host runs it: real transports (unless a test injects its own), OAuth
 * for remote servers, launch consent (stdio command lines, remote URLs), and — for every launch,
 * automatic restarts included — the login-shell PATH awaited, each referenced secret checked to
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
        ...(options.stopGraces ? { stopGraces: options.stopGraces } : {}),
      }),
    elicitation: deps.elicitation,
    variables: { ...options.launchVariables, data: options.dataDir },
    probeTimeoutMs: options.probeTimeoutMs ?? 4_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    ...(options.restart ? { restart: options.restart } : {}),
    authorizeLaunch: (name, trusted, spec, config) => deps.consent.authorizeLaunch({ server: serverRef(name, config), trusted, config, spec }),
    prepareLaunch: async (name, spec, config) => {
      await deps.consent.authorizeSecrets({ server: serverRef(name, config), trusted: config.trusted === true, config, spec });
      if (spec.transport === 'stdio') await deps.loginPath.whenReady();
      return resolveLaunchSecrets(name, spec, { store: deps.secrets, redactor: deps.redactor });
    },
    ...(deps.features ? { features: deps.features } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    onChange,
  });
}
