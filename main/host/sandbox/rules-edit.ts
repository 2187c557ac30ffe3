import { HarborError } from '../errors';
import { sandboxRules, type SandboxConfig, type SandboxRules } from '../registry/sandbox-config';
import { expandHome } from './policy';
import type { SandboxChange } from './refusals';

/**
 * A server's sandbox rules with one suggested change applied: a folder it may write, a host it
 * may reach, or one of the person's own hidden folders shown again. Paths under the home folder
 * are written `~/…`, as a person would.
 */
export function withSandboxChange(server: string, sandbox: SandboxConfig | undefined, change: SandboxChange, home: string): SandboxRules {
  const rules = sandboxRules(sandbox);
  if (!rules) throw new HarborError('BAD_REQUEST', `Server "${server}" does not run in a sandbox: there is nothing to allow.`);
  const add = (list: readonly string[] | undefined, value: string, same: (a: string, b: string) => boolean) =>
    list?.some((entry) => same(entry, value)) ? [...list] : [...(list ?? []), value];
  const samePath = (a: string, b: string) => expandHome(a, home) === expandHome(b, home);
  if (change.kind === 'allowWrite') return { ...rules, allowWrite: add(rules.allowWrite, homeRelative(change.path, home), samePath) };
  if (change.kind === 'allowDomain') return { ...rules, allowedDomains: add(rules.allowedDomains, change.domain, (a, b) => a.toLowerCase() === b.toLowerCase()) };
  const denyRead = (rules.denyRead ?? []).filter((entry) => !samePath(entry, change.path));
  const { denyRead: _old, ...rest } = rules;
  return denyRead.length > 0 ? { ...rest, denyRead } : rest;
}

/** `/home/ann/notes` → `~/notes`. */
export function homeRelative(path: string, home: string): string {
  if (path === home) return '~';
  return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}
