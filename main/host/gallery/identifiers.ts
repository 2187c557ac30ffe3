import validateNpmName from 'validate-npm-package-name';

/**
 * Registry identifiers and versions checked against each ecosystem's naming rules before a way of
 * running is shown as installable or written: they stand on a runner's command line (`npx -y
 * NAME@VERSION`, `uvx NAME==VERSION`, `docker run … IMAGE`, `dnx NAME@VERSION`), where a value
 * like `--call=…`, `--from`, `--privileged` or `-rf` would be read as the runner's own option.
 */

/** PEP 508 names: letters and digits, with `.`, `_` and `-` inside (case-insensitive). */
const PYPI_NAME = /^(?:[A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

/** NuGet package ids: word characters, joined by `.` or `-`, at most 100. */
const NUGET_ID = /^\w+(?:[.-]\w+)*$/;

/** An OCI image reference after the distribution reference grammar: [domain/]path[:tag][@digest]. */
const OCI_REFERENCE = (() => {
  const alnum = '[a-z0-9]+';
  const separator = '(?:[._]|__|-+)';
  const pathComponent = `${alnum}(?:${separator}${alnum})*`;
  const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
  const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])`;
  const domain = `${host}(?::[0-9]+)?`;
  const name = `(?:${domain}/)?${pathComponent}(?:/${pathComponent})*`;
  const tag = '[\\w][\\w.-]{0,127}';
  const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
  return new RegExp(`^${name}(?::${tag})?(?:@${digest})?$`);
})();

/** A version: starts with a letter or digit (never `-`), then what semver, PEP 440 and tags use. */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+!~-]{0,127}$/;

const KINDS: Readonly<Record<string, { readonly what: string; readonly valid: (id: string) => boolean }>> = {
  npm: {
    what: 'npm package name',
    valid: (id) => {
      const result = validateNpmName(id);
      return result.validForNewPackages || result.validForOldPackages;
    },
  },
  pypi: { what: 'PyPI package name (PEP 508)', valid: (id) => PYPI_NAME.test(id) },
  oci: { what: 'OCI image reference', valid: (id) => id.length <= 255 && OCI_REFERENCE.test(id) },
  nuget: { what: 'NuGet package id', valid: (id) => id.length <= 100 && NUGET_ID.test(id) },
};

/** Why this identifier cannot stand on its runner's command line, or undefined when it follows its ecosystem's rules. */
export function identifierProblem(registryType: string, identifier: string): string | undefined {
  const kind = KINDS[registryType];
  if (!kind || kind.valid(identifier)) return undefined;
  return `its identifier "${identifier}" is not a valid ${kind.what}`;
}

/** Why this version cannot stand on a command line, or undefined when it is a sane version. */
export function versionProblem(version: string): string | undefined {
  return VERSION.test(version) ? undefined : `its version "${version}" is not a valid version (letters, digits and . _ + ! ~ -, never starting with "-")`;
}

/**
 * Runner options a registry entry may fix in its `runtimeArguments` (before the package): those
 * that only change how the runner talks. Any other npx option is npm configuration (`--registry`,
 * `--node-options`, `--call`), and uvx's and dnx's choose where packages come from (`--index-url`,
 * `--with`, `--add-source`): what the code-loading variables do from the environment, set where
 * the person would not look for it.
 */
const PLAIN_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(['-y', '--yes', '-q', '--quiet', '--silent', '--no-update-notifier']),
  pypi: new Set(['-q', '--quiet', '--offline', '--no-progress', '--native-tls']),
  nuget: new Set(['--yes', '--prerelease']),
};

/** `docker run` options that hand the container this machine: its kernel, devices, processes or network. */
const DOCKER_ESCALATIONS = new Set(['--privileged', '--cap-add', '--device', '--device-cgroup-rule', '--security-opt', '--cgroup-parent', '--volumes-from', '--runtime', '--userns', '--pid', '--ipc', '--uts', '--cgroupns', '--network', '--net']);
/** Of those, the ones that escalate only with the value `host` (or another container's namespace). */
const HOST_VALUED = new Set(['--userns', '--pid', '--ipc', '--uts', '--cgroupns', '--network', '--net']);

/** What a runtime argument fixed by the entry would make its runner do beyond running the package; undefined when nothing. */
export function runnerOptionProblem(registryType: string, args: readonly { readonly type: string; readonly name?: string | undefined; readonly value?: string | undefined }[] | undefined): string | undefined {
  const runner = { npm: 'npx', pypi: 'uvx', oci: 'docker run', nuget: 'dnx' }[registryType];
  if (runner === undefined) return undefined;
  for (const arg of args ?? []) {
    const token = arg.type === 'named' ? arg.name : arg.value;
    if (token === undefined || !token.startsWith('-')) continue;
    const equals = token.indexOf('=');
    const option = equals === -1 ? token : token.slice(0, equals);
    if (registryType === 'oci') {
      if (!DOCKER_ESCALATIONS.has(option)) continue;
      const value = equals === -1 ? (arg.type === 'named' ? arg.value : undefined) : token.slice(equals + 1);
      if (HOST_VALUED.has(option) && !(value !== undefined && (value === 'host' || value.startsWith('container:')))) continue;
      const shown = HOST_VALUED.has(option) ? (equals === -1 ? `${option} ${value}` : token) : option;
      return `passes ${runner} the option "${shown}", which would hand the container this machine`;
    }
    if (!PLAIN_OPTIONS[registryType]!.has(option)) {
      return `passes ${runner} the option "${option}", which could make it fetch or load code you did not see (an entry may set only ${[...PLAIN_OPTIONS[registryType]!].join(', ')})`;
    }
  }
  return undefined;
}
