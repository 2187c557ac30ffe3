import { HarborError } from '../errors';
import { hasSecretRef, secretRef } from '../secrets/references';
import { identifierProblem, runnerOptionProblem, versionProblem } from './identifiers';
import { argumentKey, packageInputs, remoteInputs, type InputSpec } from './inputs';
import type { KeyValueInput, RegistryArgument, RegistryPackage, RegistryTransport, ServerDetail } from './server-json';

export type GalleryValues = Readonly<Record<string, string | readonly string[]>>;

/** One way to run a gallery server, by its index among packages then remotes (as GalleryOptionData numbers them). */
export type GalleryChoice = { readonly kind: 'package'; readonly pkg: RegistryPackage } | { readonly kind: 'remote'; readonly remote: RegistryTransport };

export interface GalleryEntry {
  /** The launch part of the registry entry (command/args/env, or url/type/headers). */
  readonly launch: Record<string, unknown>;
  readonly secrets: Array<{ readonly key: string; readonly name: string; readonly value: string }>;
  /** `npm`, `pypi`, `oci`, `nuget` or `remote`. */
  readonly kind: string;
}

/** Registry types Harbor runs, with the runner each needs. */
export const RUNNERS: Readonly<Record<string, string>> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

export function choiceAt(detail: ServerDetail, index: number): GalleryChoice {
  const packages = detail.packages ?? [];
  if (index < packages.length) return { kind: 'package', pkg: packages[index]! };
  const remote = (detail.remotes ?? [])[index - packages.length];
  if (!remote) throw new HarborError('BAD_REQUEST', `"${detail.name}" has no way to run numbered ${index}: it has ${packages.length} package(s) and ${(detail.remotes ?? []).length} remote(s).`);
  return { kind: 'remote', remote };
}

/** Why Harbor cannot run this choice, or undefined when it can. */
export function unsupportedReason(choice: GalleryChoice): string | undefined {
  if (choice.kind === 'remote') return choice.remote.type === 'streamable-http' || choice.remote.type === 'sse' ? undefined : `a remote over "${choice.remote.type}", which Harbor does not speak`;
  const { pkg } = choice;
  if (pkg.registryType === 'mcpb') return undefined;
  if (!RUNNERS[pkg.registryType]) return `a ${pkg.registryType} package, which Harbor cannot run (it runs npm, PyPI, OCI, NuGet and MCPB packages)`;
  const transport = pkg.transport?.type ?? 'stdio';
  if (transport !== 'stdio') return `a local server that listens over ${transport}: start it yourself and add its URL as a remote server`;
  // A runner would read a bad identifier or version as one of its own options (`npx -y --call=…`).
  const bad = identifierProblem(pkg.registryType, pkg.identifier) ?? (pkg.version !== undefined ? versionProblem(pkg.version) : undefined);
  if (bad) return `a ${pkg.registryType} package whose ${bad.replace(/^its /, '')}, which its runner would read as an option of its own`;
  // What an entry may not do through the environment, it may not do as the runner's own option either.
  const option = runnerOptionProblem(pkg.registryType, pkg.runtimeArguments);
  return option ? `a ${pkg.registryType} package whose entry ${option}` : undefined;
}

const refuse = (why: string) => new HarborError('BAD_REQUEST', `${why} Nothing was installed.`);

/** The person's answers, checked: defaults applied, required ones present, choices and formats respected, secrets named. */
function answer(specs: readonly InputSpec[], values: GalleryValues, secretName: (key: string) => string, previous: Readonly<Record<string, string>>) {
  const known = new Set(specs.map((s) => s.key));
  const unknown = Object.keys(values).filter((key) => !known.has(key));
  if (unknown.length > 0) throw refuse(`This server has no input ${unknown.map((k) => `"${k}"`).join(', ')}. Its inputs: ${[...known].join(', ') || '(none)'}.`);
  const answers = new Map<string, string[]>();
  const secrets: GalleryEntry['secrets'] = [];
  const missing: string[] = [];
  for (const { key, input, repeated } of specs) {
    const given = values[key];
    let list = (given === undefined ? [] : typeof given === 'string' ? [given] : [...given]).filter((v) => v !== '');
    if (list.length === 0 && previous[key] !== undefined) {
      answers.set(key, [previous[key]]);
      continue;
    }
    if (list.length === 0 && input.default !== undefined) list = [input.default];
    if (list.length === 0) {
      if (input.isRequired) missing.push(key);
      continue;
    }
    if (list.length > 1 && !repeated) throw refuse(`The input "${key}" takes one value.`);
    for (const value of list) {
      if (value.includes('${')) throw refuse(`The input "${key}" may not contain "\${" (Harbor would read it as a reference).`);
      if (input.choices?.length && !input.choices.includes(value)) throw refuse(`The input "${key}" must be one of ${input.choices.join(', ')}, got "${value}".`);
      if (input.format === 'number' && !Number.isFinite(Number(value))) throw refuse(`The input "${key}" must be a number, got "${value}".`);
      if (input.format === 'boolean' && value !== 'true' && value !== 'false') throw refuse(`The input "${key}" must be true or false, got "${value}".`);
    }
    if (input.isSecret) {
      const name = secretName(key);
      secrets.push({ key, name, value: list[0]! });
      answers.set(key, [secretRef(name)]);
    } else answers.set(key, list);
  }
  if (missing.length > 0) throw refuse(`This server needs ${missing.map((k) => `"${k}"`).join(', ')}: give ${missing.length === 1 ? 'it' : 'each'} a value (--set ${missing[0]}=VALUE).`);
  return { answers, secrets };
}

function substitute(template: string, answers: ReadonlyMap<string, string[]>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => answers.get(name)?.[0] ?? whole);
}

function argumentsOf(args: readonly RegistryArgument[] | undefined, answers: ReadonlyMap<string, string[]>): string[] {
  return (args ?? []).flatMap((arg, index) => {
    const values = arg.value !== undefined ? [substitute(arg.value, answers)] : (answers.get(argumentKey(arg, index)) ?? []);
    return values.flatMap((value) => (arg.type === 'named' && arg.name ? [arg.name, value] : [value]));
  });
}

function keyValues(list: readonly KeyValueInput[] | undefined, answers: ReadonlyMap<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const value = item.value !== undefined ? substitute(item.value, answers) : answers.get(item.name)?.[0];
    if (value !== undefined) out[item.name] = value;
  }
  return out;
}

/** `docker run` needs a tagged image: the identifier as written when it has a tag, else with the version. */
function imageOf(pkg: RegistryPackage): string {
  const last = pkg.identifier.split('/').pop() ?? '';
  return last.includes(':') || last.includes('@') || !pkg.version ? pkg.identifier : `${pkg.identifier}:${pkg.version}`;
}

function packageLaunch(pkg: RegistryPackage, detail: ServerDetail, answers: ReadonlyMap<string, string[]>): Record<string, unknown> {
  const version = pkg.version ?? detail.version;
  const badVersion = versionProblem(version);
  if (badVersion) throw refuse(`This ${pkg.registryType} package cannot be installed: ${badVersion}.`);
  const runtime = argumentsOf(pkg.runtimeArguments, answers);
  const program = argumentsOf(pkg.packageArguments, answers);
  const env = keyValues(pkg.environmentVariables, answers);
  const withEnv = (launch: Record<string, unknown>) => (Object.keys(env).length > 0 ? { ...launch, env } : launch);
  switch (pkg.registryType) {
    case 'npm':
      return withEnv({ command: 'npx', args: ['-y', ...runtime.filter((a) => a !== '-y' && a !== '--yes'), `${pkg.identifier}@${version}`, ...program] });
    case 'pypi':
      return withEnv({ command: 'uvx', args: [...runtime, `${pkg.identifier}==${version}`, ...program] });
    case 'oci': {
      const image = imageOf(pkg);
      const badImage = identifierProblem('oci', image);
      if (badImage) throw refuse(`This OCI package cannot be installed: the image ${badImage.replace(/^its identifier /, '')}.`);
      // -e NAME passes the variable from docker's environment (where Harbor puts it), so a secret never stands on the command line.
      return withEnv({ command: 'docker', args: ['run', '-i', '--rm', ...runtime, ...Object.keys(env).flatMap((name) => ['-e', name]), image, ...program] });
    }
    case 'nuget':
      return withEnv({ command: 'dnx', args: [`${pkg.identifier}@${version}`, '--yes', ...runtime, ...(program.length ? ['--', ...program] : [])] });
    default:
      throw refuse(`Harbor cannot run ${pkg.registryType} packages.`);
  }
}

/**
 * The registry entry for one way of running a gallery server, from the person's answers: `npx -y
 * pkg@version`, `uvx pkg==version`, `docker run -i --rm … image`, `dnx pkg@version`, or a remote
 * URL with its headers. Secret inputs become `${secret:…}` references (their values returned to
 * be stored); a secret that would stand on a command line or in a URL is refused.
 */
export function galleryEntry(detail: ServerDetail, choice: GalleryChoice, values: GalleryValues, secretName: (key: string) => string, previous: Readonly<Record<string, string>> = {}): GalleryEntry {
  const reason = unsupportedReason(choice);
  if (reason) throw refuse(`This is ${reason}.`);
  if (choice.kind === 'package' && choice.pkg.registryType === 'mcpb') throw refuse('An MCPB package installs as a bundle: download it and review it first.');
  const specs = choice.kind === 'package' ? packageInputs(choice.pkg) : remoteInputs(choice.remote);
  const { answers, secrets } = answer(specs, values, secretName, previous);
  if (choice.kind === 'remote') {
    const url = substitute(choice.remote.url ?? '', answers);
    if (hasSecretRef(url)) throw refuse('This remote needs a secret in its URL, where it would show up in logs; Harbor sends secrets only in headers.');
    if (/\{[A-Za-z_][A-Za-z0-9_]*\}/.test(url)) throw refuse(`The URL ${url} still has a variable without a value.`);
    const headers = keyValues(choice.remote.headers, answers);
    return {
      launch: { url, ...(choice.remote.type === 'sse' ? { type: 'sse' } : {}), ...(Object.keys(headers).length > 0 ? { headers } : {}) },
      secrets,
      kind: 'remote',
    };
  }
  const launch = packageLaunch(choice.pkg, detail, answers);
  if ((launch.args as string[]).some(hasSecretRef)) {
    throw refuse('This package takes a secret on its command line, where other programs on this computer can read it; Harbor gives secrets to servers only in environment variables.');
  }
  return { launch, secrets, kind: choice.pkg.registryType };
}
