import type { InstallPlanData, PlanValue, ServerSummary } from '../../../preload/contract';
import { HarborError } from '../errors';
import { codeLoadingAssignments, codeLoadingSettings, loadsCode, notAllowed, notAllowedMessage } from '../registry/code-loading-env';
import { hostForms, lookalikeProblems } from '../registry/lookalike';
import type { SandboxView } from '../installs/sandbox';
import { withServerAdded, withServerUpdated } from '../registry/editor';
import { isStdio, ServerConfig } from '../registry/schema';
import { findSecretRefs } from '../secrets/references';
import { describeLaunch, resolveLaunch, type LaunchVariables } from '../servers/launch';
import type { RegistryEditing, SecretValue } from './registry-editing';
import type { RegistryState } from './registry-state';
import type { SecretService } from './secret-service';
import type { ServerControl } from './server-control';

/** What the person confirmed beyond the plan: variables that load code (by name), look-alike names and hosts. */
export interface InstallAllowances {
  readonly allowEnv?: readonly string[] | undefined;
  readonly allowLookalike?: boolean | undefined;
}

/**
 * Writing an installed server (from a bundle or the gallery), the one way both installers do it:
 * the plan shown first (the exact command line or URL, what goes to the keychain, the sandbox),
 * then the registry edit through RegistryEditing — secrets to the keychain first and bound to
 * this server, the entry saved atomically — and, when the person approved it with the command in
 * front of them (--yes), the launch approved as shown.
 */
export class InstalledServers {
  constructor(
    private readonly registry: RegistryState,
    private readonly editing: RegistryEditing,
    private readonly secrets: SecretService,
    private readonly servers: ServerControl,
    private readonly variables: LaunchVariables,
  ) {}

  /** Secret names in the keychain, read only when an install stores one (no keychain needed otherwise). */
  async takenSecretNames(needed: boolean): Promise<Set<string>> {
    return needed ? new Set(await this.secrets.list()) : new Set();
  }

  /** The plan of writing `config` as `name` (checked as the registry would check it; nothing written). */
  plan(
    name: string,
    config: Record<string, unknown>,
    extra: { readonly secrets: InstallPlanData['secrets']; readonly sandbox?: SandboxView; readonly updatingFrom?: string },
  ): InstallPlanData {
    const file = this.registry.requireValid().file;
    const checked = extra.updatingFrom !== undefined ? withServerUpdated(file, name, config) : withServerAdded(file, name, config);
    const entry = ServerConfig.parse(checked.mcpServers![name]);
    const spec = resolveLaunch(name, entry, this.variables);
    const env = isStdio(entry) ? (entry.env ?? {}) : {};
    const url = isStdio(entry) ? undefined : entry.url;
    const host = url !== undefined ? hostForms(url) : undefined;
    const lookalike = lookalikeProblems(name, url);
    return {
      server: name,
      transport: spec.transport,
      target: describeLaunch(spec),
      envNames: isStdio(entry) ? Object.keys(entry.env ?? {}).sort() : [],
      headerNames: isStdio(entry) ? [] : Object.keys(entry.headers ?? {}).sort(),
      env: planValues(env, true),
      headers: planValues(isStdio(entry) ? {} : (entry.headers ?? {}), false),
      // Set in env, or from the arguments (docker's `-e NODE_OPTIONS=…` fixed in runtimeArguments): the same.
      codeLoadingEnv: [...new Set(codeLoadingSettings(isStdio(entry) ? entry : undefined).map(([variable]) => variable))].sort(),
      ...(host ? { host } : {}),
      ...(lookalike.length ? { lookalike } : {}),
      secrets: [...extra.secrets],
      ...(extra.sandbox && spec.transport === 'stdio' ? { sandbox: extra.sandbox } : {}),
      config,
      ...(extra.updatingFrom !== undefined ? { updatingFrom: extra.updatingFrom } : {}),
    };
  }

  /**
   * Refuses (CONSENT_REQUIRED: the CLI's exit 4) a plan that sets a variable which makes a runtime
   * load or fetch code the person did not allow by name. Called before anything is written.
   */
  requireAllowed(plan: InstallPlanData, allow: InstallAllowances): void {
    if (plan.lookalike?.length && allow.allowLookalike !== true) {
      throw new HarborError('CONSENT_REQUIRED', `warning: ${plan.lookalike.join('; ')}. Nothing was installed. If you are sure, confirm it: --allow-lookalike (in the app: tick its box).`);
    }
    const allowEnv = allow.allowEnv;
    const missing = notAllowed(plan.codeLoadingEnv ?? [], allowEnv);
    if (missing.length === 0) return;
    const values = new Map([...argumentAssignments(plan.config), ...(plan.env ?? []).map((v) => [v.name, v.value] as const)]);
    throw new HarborError('CONSENT_REQUIRED', notAllowedMessage(plan.server, missing.map((name) => [name, values.get(name) ?? ''] as const), 'Nothing was installed.'));
  }

  /** Adds or updates the server; `approveLaunch`: the person approved the command shown (persisted like grant-launch). */
  async write(plan: InstallPlanData, secrets: readonly SecretValue[], approveLaunch: boolean, allow: InstallAllowances): Promise<ServerSummary> {
    this.requireAllowed(plan, allow);
    const summary =
      plan.updatingFrom !== undefined ? await this.editing.update(plan.server, plan.config, undefined, secrets) : await this.editing.add(plan.server, plan.config, secrets);
    if (!approveLaunch) return summary;
    this.servers.approveLaunch(plan.server);
    return this.servers.get(plan.server);
  }
}

/** The code-loading variables a stdio entry's arguments set themselves (`env NAME=…`, `docker -e NAME=…`), with what follows. */
function argumentAssignments(config: Record<string, unknown>): Array<readonly [string, string]> {
  return Array.isArray(config.args) && typeof config.command === 'string' ? codeLoadingAssignments(config.args.filter((a): a is string => typeof a === 'string')) : [];
}

/** Each variable or header with its value as it will be set; a whole `${secret:NAME}` shows as its keychain name, never a value. */
function planValues(values: Readonly<Record<string, string>>, env: boolean): PlanValue[] {
  return Object.entries(values)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => {
      const refs = findSecretRefs(value);
      const secret = refs.length === 1 && value === `\${secret:${refs[0]}}` ? { secret: refs[0]! } : {};
      return { name, value, ...secret, ...(env && loadsCode(name) ? { loadsCode: true } : {}) };
    });
}
