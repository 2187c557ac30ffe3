import { z } from 'zod';

/**
 * The registry's `"sandbox"` field of a stdio server, and the top-level `"installs"` setting that
 * decides whether servers installed from bundles or the gallery get one. What the sandbox does
 * with it lives in main/host/sandbox/; this file is only the shape a person writes.
 *
 *   "sandbox": true                       no writes but its own temporary folder, no network
 *   "sandbox": {"allowWrite": ["~/notes"], "denyRead": ["~/work/secrets"], "allowedDomains": ["api.example.com"]}
 *   "sandbox": false (or absent)          runs with the person's rights
 */

/** The npm registry: allowing it lets `npx` servers download their package inside the sandbox. */
export const NPM_REGISTRY_DOMAIN = 'registry.npmjs.org';

/** An absolute path, one starting at the home folder (`~`, `~/…`), or at `${harbor:data}` and friends. */
const SandboxPath = z
  .string()
  .min(1, 'must not be empty')
  .refine((path) => path === '~' || path.startsWith('~/') || path.startsWith('/') || path.startsWith('${harbor:') || /^[A-Za-z]:[\\/]/.test(path), {
    message: 'must be an absolute path or start with ~/ (a relative path would depend on where the server starts)',
  });

/**
 * A host the server may reach: `example.com`, `*.example.com`, an IP address (IPv6 in brackets),
 * each with an optional `:port`. No scheme and no path: the sandbox filters connections by host.
 */
const DOMAIN = /^(?:\*\.)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?::\d{1,5})?$/;
const BRACKETED_IPV6 = /^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export function domainProblem(domain: string): string | undefined {
  if (domain.includes('://')) return `"${domain}" is a URL: write only the host, e.g. "${hostOf(domain)}"`;
  if (domain.includes('/')) return `"${domain}" has a path: write only the host`;
  if (!DOMAIN.test(domain) && !BRACKETED_IPV6.test(domain)) return `"${domain}" is not a host name (e.g. "api.example.com", "*.example.com" or "example.com:8443")`;
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'example.com';
  }
}

const SandboxDomain = z.string().superRefine((domain, ctx) => {
  const problem = domainProblem(domain);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const SandboxRules = z.looseObject({
  /** Folders (or files) the server may write, besides its own temporary folder. */
  allowWrite: z.array(SandboxPath).optional(),
  /** Folders (or files) the server may not read, besides those Harbor always hides. */
  denyRead: z.array(SandboxPath).optional(),
  /** Hosts the server may connect to; nothing else is reachable. */
  allowedDomains: z.array(SandboxDomain).optional(),
});
export type SandboxRules = z.infer<typeof SandboxRules>;

export const SandboxConfig = z.union([z.boolean(), SandboxRules]);
export type SandboxConfig = z.infer<typeof SandboxConfig>;

/** The rules of a server's sandbox, or undefined when it runs unsandboxed. */
export function sandboxRules(sandbox: SandboxConfig | undefined): SandboxRules | undefined {
  if (sandbox === undefined || sandbox === false) return undefined;
  return sandbox === true ? {} : sandbox;
}

/** Package runners that download what they run, and the hosts they download it from. */
const DOWNLOADERS: readonly [RegExp, readonly string[]][] = [
  [/^(?:npx|npm|pnpm|pnpx|yarn|bunx)$/, [NPM_REGISTRY_DOMAIN]],
  [/^(?:uvx|uv|pipx)$/, ['pypi.org', 'files.pythonhosted.org']],
];

/**
 * The `"sandbox"` an installer writes for a new local server: `true`, or for a command that
 * downloads its package first (npx, uvx) the registry it downloads from.
 */
export function sandboxForInstalledServer(command: string): SandboxConfig {
  const program = command.split(/[\\/]/).pop()!.replace(/\.(?:cmd|exe)$/i, '');
  const domains = DOWNLOADERS.find(([pattern]) => pattern.test(program))?.[1];
  return domains ? { allowedDomains: [...domains] } : true;
}

/** The top-level `"installs"` entry (other fields in it belong to the installers). */
export const InstallsConfig = z.looseObject({
  /** Default true: servers installed from bundles or the gallery get `"sandbox"` where this Harbor can enforce it. */
  sandbox: z.boolean().optional(),
});
export type InstallsConfig = z.infer<typeof InstallsConfig>;

/** The "sandbox installed servers" setting, with its default. */
export function sandboxInstalledServers(installs: InstallsConfig | undefined): boolean {
  return installs?.sandbox ?? true;
}
