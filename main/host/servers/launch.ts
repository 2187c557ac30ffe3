import { createHash } from 'node:crypto';
import { HarborError } from '../errors';
import { sandboxRules, type SandboxRules } from '../registry/sandbox-config';
import { isStdio, type ServerConfig } from '../registry/schema';

/** What it takes to start one server, after Harbor's variables were expanded. */
export type LaunchSpec =
  | {
      readonly transport: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
      /** Run inside the sandbox with these rules (main/host/sandbox); absent: unsandboxed. */
      readonly sandbox?: SandboxRules;
    }
  | {
      readonly transport: 'http';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      /** Go straight to the legacy HTTP+SSE transport ("transport": "sse" in the registry). */
      readonly legacySse: boolean;
    };

export interface LaunchVariables {
  /** `${harbor:node}`: a Node able to run bundled servers (Electron runs itself as Node). */
  readonly node: string;
  /** `${harbor:resources}`: the folder holding the bundled example server. */
  readonly resources: string;
  /** `${harbor:data}`: Harbor's data dir (the example server keeps its notes there). */
  readonly data: string;
  /** Extra env when the command is `${harbor:node}` (Electron: ELECTRON_RUN_AS_NODE=1). */
  readonly nodeEnv?: Readonly<Record<string, string>>;
}

const VARIABLE = /\$\{([a-z]+):([^}]*)\}/g;

/**
 * Expands `${harbor:node}` and `${harbor:resources}` in a server's command, args, env, cwd, URL
 * and headers. Other `${…}` references (`${secret:NAME}`, resolved from the keychain) are left
 * for their own resolver; an unknown `${harbor:…}` is an error naming the fix.
 */
export function resolveLaunch(name: string, config: ServerConfig, vars: LaunchVariables): LaunchSpec {
  const expand = (value: string): string =>
    value.replace(VARIABLE, (whole, scope: string, key: string) => {
      if (scope !== 'harbor') return whole;
      if (key === 'node') return vars.node;
      if (key === 'resources') return vars.resources;
      if (key === 'data') return vars.data;
      throw new HarborError('CONFIG_INVALID', `Server "${name}" uses unknown variable ${whole}. Harbor knows \${harbor:node}, \${harbor:resources} and \${harbor:data}.`);
    });
  const expandRecord = (record: Readonly<Record<string, string>> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, expand(v)]));
  if (isStdio(config)) {
    const rules = sandboxRules(config.sandbox);
    return {
      transport: 'stdio',
      command: expand(config.command),
      args: (config.args ?? []).map(expand),
      env: { ...(config.command === '${harbor:node}' ? vars.nodeEnv : {}), ...expandRecord(config.env) },
      ...(config.cwd ? { cwd: expand(config.cwd) } : {}),
      ...(rules ? { sandbox: expandRules(rules, expand) } : {}),
    };
  }
  return {
    transport: 'http',
    url: expand(config.url),
    headers: expandRecord(config.headers),
    legacySse: config.transport === 'sse' || config.type === 'sse',
  };
}

/** `${harbor:data}/notes` in a sandbox path means what it means everywhere else. */
function expandRules(rules: SandboxRules, expand: (value: string) => string): SandboxRules {
  return {
    ...(rules.allowWrite ? { allowWrite: rules.allowWrite.map(expand) } : {}),
    ...(rules.denyRead ? { denyRead: rules.denyRead.map(expand) } : {}),
    ...(rules.allowedDomains ? { allowedDomains: [...rules.allowedDomains] } : {}),
  };
}

/** One line a person can read: the exact command line, or the URL. */
export function describeLaunch(spec: LaunchSpec): string {
  if (spec.transport === 'http') return spec.url;
  return [spec.command, ...spec.args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
}

/**
 * Identifies a launch configuration: the era cache and the launch approval are both valid only for
 * the exact spec that earned them (change the command, args, env, URL or headers and they lapse).
 */
export function launchHash(spec: LaunchSpec): string {
  return createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 32);
}
