import { HarborError } from '../errors';
import { isStdio, type ServerConfig } from '../registry/schema';
import type { LaunchSpec } from '../servers/launch';
import type { Redactor } from './redactor';
import { isValidSecretName, type SecretStore } from './store';

/** `${secret:NAME}`; the name is checked separately so a bad one gets a precise message. */
const REFERENCE = /\$\{secret:([^}]*)\}/g;

export function secretRef(name: string): string {
  return `\${secret:${name}}`;
}

/** The names referenced in one value, in order, duplicates kept. */
export function findSecretRefs(value: string): string[] {
  return [...value.matchAll(REFERENCE)].map((m) => m[1]!);
}

export function hasSecretRef(value: string): boolean {
  return findSecretRefs(value).length > 0;
}

/** The secrets a registry entry references where a secret may stand: its env (stdio) or headers (remote), and its sign-in settings (`oauth`). */
export function referencedSecretNames(config: ServerConfig): Set<string> {
  const record = (isStdio(config) ? config.env : config.headers) ?? {};
  const oauth = oauthSecretUses((config as { oauth?: unknown }).oauth).map((use) => use.name);
  return new Set([...Object.values(record).flatMap(findSecretRefs), ...oauth]);
}

interface Use {
  readonly name: string;
  /** e.g. `env.GITHUB_TOKEN`, `headers.Authorization`. */
  readonly where: string;
}

/** Where references may stand: values a server receives privately, never args or URLs (`ps`, logs). */
function referenceFields(spec: LaunchSpec): { field: 'env' | 'headers'; record: Readonly<Record<string, string>> } {
  return spec.transport === 'stdio' ? { field: 'env', record: spec.env } : { field: 'headers', record: spec.headers };
}

/**
 * One place a server would be given a secret: `${secret:NAME}` in an env variable (stdio), a
 * header (remote), or a sign-in setting (`oauth.clientSecret`, `oauth.privateKey`, …: sent to
 * the authorization server the remote server names).
 */
export interface SecretUse {
  readonly name: string;
  readonly field: 'env' | 'headers' | 'oauth';
  readonly key: string;
}

/** The `${secret:…}` references anywhere in a server's `oauth` entry, keyed by their path (`oauth.enterprise.idToken`). */
export function oauthSecretUses(oauth: unknown): SecretUse[] {
  const uses: SecretUse[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      for (const name of findSecretRefs(value)) uses.push({ name, field: 'oauth', key: path });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
    }
  };
  walk(oauth, 'oauth');
  return uses;
}

/** Every secret a launch's env or headers reference, in order (a name used twice appears twice). */
export function secretUses(spec: LaunchSpec): SecretUse[] {
  const { field, record } = referenceFields(spec);
  return Object.entries(record).flatMap(([key, value]) => findSecretRefs(value).map((name) => ({ name, field, key })));
}

function misplacedReferences(spec: LaunchSpec): string[] {
  const fields: Array<[string, string]> =
    spec.transport === 'stdio'
      ? [['command', spec.command], ...spec.args.map((a, i): [string, string] => [`args[${i}]`, a]), ...(spec.cwd ? [['cwd', spec.cwd] as [string, string]] : [])]
      : [['url', spec.url]];
  return fields.filter(([, value]) => hasSecretRef(value)).map(([where]) => where);
}

/**
 * Replaces every `${secret:NAME}` in a launch's env (stdio) or header (HTTP) values with the
 * secret's value from the store, in main, just before the transport opens. A spec without
 * references is returned as is, without touching the store. Throws CONFIG_INVALID for a
 * reference in args, command, cwd or URL (those show up in process lists and logs).
 */
export async function resolveLaunchSecrets(server: string, spec: LaunchSpec, deps: SecretDeps): Promise<LaunchSpec> {
  const misplaced = misplacedReferences(spec);
  if (misplaced.length > 0) {
    throw new HarborError(
      'CONFIG_INVALID',
      `Server "${server}" has a \${secret:…} reference in ${misplaced.join(', ')}: secrets can only be used in ${spec.transport === 'stdio' ? '"env"' : '"headers"'} values (command lines and URLs show up in process lists and logs). Move it there.`,
    );
  }
  const { field, record } = referenceFields(spec);
  const entries = Object.entries(record);
  if (!entries.some(([, value]) => hasSecretRef(value))) return spec;
  const values = await resolveSecretValues(`Server "${server}"`, entries.map(([key, value]) => [`${field}.${key}`, value]), deps, 'start the server again');
  const resolved = Object.fromEntries(entries.map(([key], i) => [key, values[i]!]));
  return spec.transport === 'stdio' ? { ...spec, env: resolved } : { ...spec, headers: resolved };
}

export interface SecretDeps {
  readonly store: SecretStore;
  readonly redactor: Redactor;
}

/**
 * Resolves the references in one value that is not a launch (a model's `apiKey`), the same way.
 * `owner` names it in messages, e.g. `The model configuration`.
 */
export async function resolveSecretString(owner: string, where: string, value: string, deps: SecretDeps): Promise<string> {
  if (!hasSecretRef(value)) return value;
  return (await resolveSecretValues(owner, [[where, value]], deps, 'try again'))[0]!;
}

/**
 * The values with their references replaced. Every secret read is added to the redactor before
 * this returns, so whatever the receiver does with it is masked from its first output on.
 * Throws CONFIG_INVALID for a malformed name, KEYCHAIN_UNAVAILABLE when the store cannot be read,
 * and SECRET_MISSING (naming each secret and the command that sets it) when one is not set.
 */
async function resolveSecretValues(owner: string, entries: ReadonlyArray<readonly [where: string, value: string]>, deps: SecretDeps, then: string): Promise<string[]> {
  const uses: Use[] = entries.flatMap(([where, value]) => findSecretRefs(value).map((name) => ({ name, where })));
  const invalid = uses.filter((u) => !isValidSecretName(u.name));
  if (invalid.length > 0) {
    throw new HarborError(
      'CONFIG_INVALID',
      `${owner} references ${invalid.map((u) => `"\${secret:${u.name}}" (${u.where})`).join(', ')}: a secret name uses letters, digits, ".", "_" or "-". Fix the configuration.`,
    );
  }
  const names = [...new Set(uses.map((u) => u.name))];
  const values = new Map<string, string>();
  for (const name of names) {
    const value = await deps.store.get(name); // KEYCHAIN_UNAVAILABLE propagates with its fix
    if (value !== undefined) {
      deps.redactor.add(value);
      values.set(name, value);
    }
  }
  const missing = names.filter((n) => !values.has(n));
  if (missing.length > 0) {
    const where = (name: string) => uses.filter((u) => u.name === name).map((u) => u.where).join(', ');
    throw new HarborError(
      'SECRET_MISSING',
      `${owner} needs ${missing.length === 1 ? 'a secret that is' : 'secrets that are'} not set: ${missing.map((n) => `"${n}" (${where(n)})`).join(', ')}. ` +
        `Set ${missing.length === 1 ? 'it' : 'each'} with ${missing.map((n) => `"harbor secret set ${n}"`).join(', ')} (the value is read from stdin) and ${then}.`,
    );
  }
  return entries.map(([, value]) => value.replace(REFERENCE, (_whole, name: string) => values.get(name)!));
}
