import type { DoctorCheckData, DoctorReportData, ServerSummary } from '../../../preload/contract';
import type { ConsentGate } from '../consent/gate';
import { serverRef } from '../consent/identity';
import { HarborError, toErrorData } from '../errors';
import { serverEntryProblems } from '../registry/entry-problems';
import { isStdio, ServerConfig } from '../registry/schema';
import { oauthSecretUses, secretUses } from '../secrets/references';
import type { SecretStore } from '../secrets/store';
import { resolveLaunch, type LaunchSpec, type LaunchVariables } from '../servers/launch';
import { addressCheck, commandCheck, cwdCheck, firstRequest, runtimeCheck, tlsCheck } from './doctor-probes';
import type { RegistryState } from './registry-state';
import type { SandboxService } from './sandbox-service';
import type { ServerControl } from './server-control';
import type { ServerSignIn } from './server-sign-in';

export interface DoctorDeps {
  readonly registry: RegistryState;
  readonly servers: ServerControl;
  readonly consent: ConsentGate;
  readonly secrets: SecretStore;
  readonly signIn: ServerSignIn;
  readonly sandbox: SandboxService;
  readonly variables: LaunchVariables;
  /** The PATH stdio servers get (the login shell's, once known). */
  readonly serverPath: () => Promise<string | undefined>;
}

/** A check, and whether the ones after it can run. */
type Step = DoctorCheckData;

/**
 * The connection doctor: for one server, its registry entry, then (stdio) its command, runtime and
 * working folder or (remote) its address, TLS and first answer, its launch consent and secrets,
 * the handshake, the catalog and the sandbox — each ok, warn, fail or skip with the fix. It changes
 * nothing: no consent is asked or recorded, no secret granted, no file written. The handshake is
 * the server's ordinary connect (only when its launch is approved and its secrets granted, so
 * nothing is asked); a server already connected is reported as it is.
 */
export class ConnectionDoctor {
  constructor(private readonly deps: DoctorDeps) {}

  /** The enabled servers' names, in registry order (what `harbor doctor` without a name checks). */
  enabledServers(): string[] {
    return [...this.deps.registry.requireValid().servers].filter(([, config]) => config.enabled !== false).map(([name]) => name);
  }

  /** Diagnoses a saved server, or (`config`) an entry not saved yet: then nothing is launched. */
  async diagnose(name: string, unsaved?: Record<string, unknown>): Promise<DoctorReportData> {
    const checks: Step[] = [];
    const report = (): DoctorReportData => ({ server: name, ok: !checks.some((c) => c.status === 'fail'), checks });
    const entry = this.entry(name, unsaved);
    checks.push(entry.check);
    if (!entry.config || !entry.spec) return report();
    const { config, spec } = entry;
    if (config.enabled === false && !unsaved) {
      checks.push({ id: 'enabled', status: 'skip', message: 'the server is disabled: nothing more to check', fix: 'Set "enabled": true (or turn it on in the app) to use it.' });
      return report();
    }

    let canLaunch = true;
    if (spec.transport === 'stdio') canLaunch = (await this.stdioChecks(spec, checks)) && canLaunch;
    else canLaunch = (await this.reachChecks(spec.url, checks)) && canLaunch;
    const decided = unsaved ? this.unsavedConsent(checks) : await this.decisions(name, config, spec, checks);

    if (spec.transport === 'http') await this.remoteAnswer(name, spec.url, decided || !!unsaved, checks);
    if (unsaved) checks.push({ id: 'handshake', status: 'skip', message: 'not saved yet: save the server to start it and see its handshake' });
    else if (!canLaunch || checks.some((c) => c.status === 'fail' && c.code !== 'CONSENT_REQUIRED')) checks.push({ id: 'handshake', status: 'skip', message: 'not tried: it cannot start or be reached as it is (see above)' });
    else if (!decided) checks.push({ id: 'handshake', status: 'skip', message: 'not tried: it waits for your decisions (see above)' });
    else await this.handshake(name, checks);
    if (spec.transport === 'stdio') await this.sandboxChecks(name, spec, checks);
    return report();
  }

  /** The registry entry: valid, no placeholder of another app, its launch resolvable. */
  private entry(name: string, unsaved?: Record<string, unknown>): { check: Step; config?: ServerConfig; spec?: LaunchSpec } {
    let config: ServerConfig | undefined;
    if (unsaved) {
      const parsed = ServerConfig.safeParse(unsaved);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ');
        return { check: { id: 'registry', status: 'fail', code: 'CONFIG_INVALID', message: `the entry is not valid: ${problems}`, fix: 'Correct the fields named.' } };
      }
      config = parsed.data;
    } else {
      try {
        this.deps.registry.requireValid();
      } catch (error) {
        const data = toErrorData(error);
        return { check: { id: 'registry', status: 'fail', code: data.code, message: data.message.split('\n')[0] ?? data.message, fix: 'Fix the registry file (harbor info lists its problems).' } };
      }
      config = this.deps.registry.server(name);
      if (!config) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}". Known servers: ${[...this.deps.registry.servers.keys()].join(', ') || '(none)'}.`);
    }
    const problems = serverEntryProblems(config);
    if (problems.length > 0) return { check: { id: 'registry', status: 'fail', code: 'CONFIG_INVALID', message: `the entry cannot start as written: ${problems.join('; ')}`, fix: 'Correct the entry as each problem says.' }, config };
    try {
      const spec = resolveLaunch(name, config, this.deps.variables);
      return { check: { id: 'registry', status: 'ok', message: `${isStdio(config) ? 'local (stdio)' : 'remote'} server, the entry is valid` }, config, spec };
    } catch (error) {
      const data = toErrorData(error);
      return { check: { id: 'registry', status: 'fail', code: data.code, message: data.message }, config };
    }
  }

  /** Command, runtime, working folder: false when the server cannot start. */
  private async stdioChecks(spec: Extract<LaunchSpec, { transport: 'stdio' }>, checks: Step[]): Promise<boolean> {
    const path = spec.env.PATH ?? (await this.deps.serverPath()) ?? process.env.PATH;
    const command = commandCheck(spec.command, path);
    checks.push(command.check);
    if (command.resolved) {
      const runtime = await runtimeCheck(spec.command, command.resolved, path);
      if (runtime) checks.push(runtime);
    }
    const cwd = cwdCheck(spec.cwd);
    checks.push(cwd);
    return command.check.status !== 'fail' && cwd.status !== 'fail' && checks.at(-2)?.status !== 'fail';
  }

  /** Address and TLS of a remote server: false when nothing answers there. */
  private async reachChecks(address: string, checks: Step[]): Promise<boolean> {
    const url = new URL(address);
    const reach = await addressCheck(url);
    checks.push(reach);
    if (reach.status === 'fail') {
      checks.push({ id: 'tls', status: 'skip', message: 'not tried: the address does not accept connections' });
      return false;
    }
    const tls = await tlsCheck(url);
    checks.push(tls);
    return tls.status !== 'fail';
  }

  private unsavedConsent(checks: Step[]): boolean {
    checks.push({ id: 'consent', status: 'skip', message: 'not saved yet: Harbor asks before it first starts or reaches it' });
    return false;
  }

  /** Launch consent and secrets, asked of no one: true when the launch would go ahead without asking. */
  private async decisions(name: string, config: ServerConfig, spec: LaunchSpec, checks: Step[]): Promise<boolean> {
    const target = { server: serverRef(name, config), trusted: config.trusted === true, config, spec };
    const launch = this.deps.consent.isLaunchApproved(target);
    checks.push(
      launch
        ? { id: 'consent', status: 'ok', message: config.trusted === true ? 'trusted: starts without asking' : 'launch approved' }
        : {
            id: 'consent',
            status: 'fail',
            code: 'CONSENT_REQUIRED',
            message: spec.transport === 'http' ? 'connecting to it is not approved yet' : 'launching it is not approved yet',
            fix: `Approve it: harbor consent grant-launch ${name} (or Start in the app).`,
          },
    );
    const uses = [...secretUses(spec), ...oauthSecretUses((config as { oauth?: unknown }).oauth)];
    if (uses.length === 0) {
      checks.push({ id: 'secrets', status: 'skip', message: 'it uses no keychain secret' });
      return launch;
    }
    let stored: Set<string>;
    try {
      stored = new Set(await this.deps.secrets.list());
    } catch (error) {
      const data = toErrorData(error);
      checks.push({ id: 'secrets', status: 'fail', code: data.code, message: `the keychain cannot be read: ${data.message}` });
      return false;
    }
    const names = [...new Set(uses.map((use) => use.name))];
    const missing = names.filter((secret) => !stored.has(secret));
    const ungranted = names.filter((secret) => stored.has(secret) && !this.deps.consent.isSecretBound(secret, target.server.identity));
    if (missing.length > 0) {
      checks.push({ id: 'secrets', status: 'fail', code: 'SECRET_MISSING', message: `not set in the keychain: ${missing.join(', ')}`, fix: missing.map((secret) => `harbor secret set ${secret}`).join('; ') });
    } else if (ungranted.length > 0) {
      checks.push({ id: 'secrets', status: 'fail', code: 'CONSENT_REQUIRED', message: `set, but not granted to "${name}": ${ungranted.join(', ')}`, fix: ungranted.map((secret) => `harbor secret grant ${secret} ${name}`).join('; ') });
    } else {
      checks.push({ id: 'secrets', status: 'ok', message: `${names.join(', ')}: set and granted to "${name}"` });
    }
    return launch && missing.length === 0 && ungranted.length === 0;
  }

  /** A remote server's first answer and whether it needs a sign-in Harbor holds. */
  private async remoteAnswer(name: string, address: string, allowed: boolean, checks: Step[]): Promise<void> {
    if (checks.some((c) => c.id === 'address' && c.status === 'fail')) {
      checks.push({ id: 'first-request', status: 'skip', message: 'not sent: the address does not accept connections' });
      return;
    }
    if (!allowed) {
      checks.push({ id: 'first-request', status: 'skip', message: 'not sent: connecting to it is not approved yet' });
      return;
    }
    const answer = await firstRequest(new URL(address), '2025-11-25');
    checks.push(answer.check);
    if (!answer.needsSignIn) return;
    // A sign-in status that cannot be read (keychain locked) is checked as "holds none": the step fails with its fix.
    const status = this.deps.registry.server(name) ? await this.deps.signIn.status(name).catch(() => undefined) : undefined;
    if (!status?.usesSignIn) {
      checks.push({ id: 'sign-in', status: 'ok', message: 'it needs credentials: Harbor sends the configured Authorization header or machine grant' });
    } else if (status.signedIn) {
      checks.push({ id: 'sign-in', status: 'ok', message: 'it needs sign-in, and Harbor holds a sign-in for it' });
    } else {
      checks.push({ id: 'sign-in', status: 'fail', code: 'AUTH_REQUIRED', message: 'it needs sign-in, and Harbor holds none for it', fix: `Sign in: harbor login ${name} (or Sign in on its card).` });
    }
  }

  /** The handshake (the server's ordinary connect) and, once ready, its catalog. */
  private async handshake(name: string, checks: Step[]): Promise<void> {
    const before = this.deps.servers.get(name);
    const started = Date.now();
    let summary: ServerSummary;
    if (before.state.kind === 'ready') summary = before;
    else {
      try {
        summary = await this.deps.servers.connect(name);
      } catch (error) {
        const data = toErrorData(error);
        const state = this.deps.servers.get(name).state;
        const tail = (data.detail ?? (state.kind === 'error' ? state.stderrTail : '') ?? this.deps.servers.stderrTail(name)).trim();
        checks.push({ id: 'handshake', status: 'fail', code: data.code, message: `${data.code}: ${data.message}${tail ? `\nits stderr ends:\n${tail}` : ''}` });
        checks.push({ id: 'catalog', status: 'skip', message: 'not read: it did not connect' });
        return;
      }
    }
    const took = before.state.kind === 'ready' ? 'already connected' : `ready in ${Date.now() - started} ms`;
    const info = summary.serverInfo ? `${summary.serverInfo.name} ${summary.serverInfo.version}, ` : '';
    checks.push({ id: 'handshake', status: 'ok', message: `${info}${summary.era ?? 'unknown'} era, protocol ${summary.protocolVersion ?? 'unknown'}, ${took}` });
    const { counts, stale } = summary;
    const listed = `tools ${counts.tools}, resources ${counts.resources}, resource templates ${counts.resourceTemplates}, prompts ${counts.prompts}`;
    checks.push(
      stale
        ? { id: 'catalog', status: 'warn', message: `${listed}; ${stale.lists.join(', ')} failed to refresh: ${stale.message} (showing the lists from ${new Date(stale.since).toISOString()})`, fix: 'Retry on its card, or restart the server.' }
        : { id: 'catalog', status: 'ok', message: listed },
    );
  }

  /** Whether it runs in a sandbox, the rules in effect and what the sandbox refused it. */
  private async sandboxChecks(name: string, spec: Extract<LaunchSpec, { transport: 'stdio' }>, checks: Step[]): Promise<void> {
    if (!spec.sandbox) {
      checks.push({ id: 'sandbox', status: 'ok', message: 'not sandboxed: it runs with your user\'s rights' });
      return;
    }
    const status = await this.deps.sandbox.status();
    if (!status.available) {
      checks.push({ id: 'sandbox', status: 'fail', code: 'SANDBOX_UNAVAILABLE', message: `the registry asks for a sandbox this machine cannot provide: ${status.reason ?? ''}`, ...(status.fix ? { fix: status.fix } : {}) });
      return;
    }
    const rules = spec.sandbox;
    checks.push({
      id: 'sandbox',
      status: 'ok',
      message: `sandboxed (${status.mechanism ?? 'sandbox'}): writes to its own temporary folder${rules.allowWrite?.length ? ` and ${rules.allowWrite.join(', ')}` : ' only'}; network: ${rules.allowedDomains?.length ? rules.allowedDomains.join(', ') : 'none'}${rules.denyRead?.length ? `; hidden: ${rules.denyRead.join(', ')}` : ''}`,
    });
    for (const refusal of this.deps.sandbox.refusals(name).slice(-5)) {
      const what = refusal.kind === 'network' ? `connecting to ${refusal.target}` : `${refusal.kind === 'write' ? 'writing' : 'reading'} ${refusal.target}`;
      const fix = refusal.suggestion ? `${refusal.suggestion.label}: ${refusal.suggestion.rule} (or Allow on its card)` : undefined;
      checks.push({ id: 'sandbox-refusal', status: 'warn', message: `the sandbox refused ${what} (${refusal.count}×)`, ...(fix ? { fix } : {}) });
    }
  }
}
