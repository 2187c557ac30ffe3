/**
 * The server editor's Sandbox section as plain data, and its translation to and from the
 * registry's `"sandbox"` field: `true`, or `{"allowWrite": […], "denyRead": […], "allowedDomains": […]}`.
 * One folder or host per line. The npm switch is `registry.npmjs.org` in allowedDomains.
 */

export const NPM_REGISTRY = 'registry.npmjs.org';

export interface SandboxFormData {
  readonly enabled: boolean;
  /** One folder per line. */
  readonly allowWrite: string;
  readonly denyRead: string;
  /** One host per line (the npm registry is the switch below, not a line). */
  readonly allowedDomains: string;
  /** `npx` may download packages: the npm registry is reachable. */
  readonly npmRegistry: boolean;
  /** Fields of the rules this section does not edit: kept as they were. */
  readonly extra: Readonly<Record<string, unknown>>;
}

const EDITED = new Set(['allowWrite', 'denyRead', 'allowedDomains']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const lines = (text: string): string[] => [...new Set(text.split('\n').map((l) => l.trim()).filter(Boolean))];

export function sandboxFormFromConfig(sandbox: unknown): SandboxFormData {
  const rules = isRecord(sandbox) ? sandbox : {};
  const domains = list(rules.allowedDomains);
  return {
    enabled: sandbox === true || isRecord(sandbox),
    allowWrite: list(rules.allowWrite).join('\n'),
    denyRead: list(rules.denyRead).join('\n'),
    allowedDomains: domains.filter((d) => d.toLowerCase() !== NPM_REGISTRY).join('\n'),
    npmRegistry: domains.some((d) => d.toLowerCase() === NPM_REGISTRY),
    extra: Object.fromEntries(Object.entries(rules).filter(([key]) => !EDITED.has(key))),
  };
}

/** The `"sandbox"` value to write: undefined when off (the server runs unsandboxed), `true` with no rules. */
export function sandboxConfigFromForm(form: SandboxFormData): true | Record<string, unknown> | undefined {
  if (!form.enabled) return undefined;
  const kept = form.extra;
  const allowWrite = lines(form.allowWrite);
  const denyRead = lines(form.denyRead);
  const allowedDomains = [...(form.npmRegistry ? [NPM_REGISTRY] : []), ...lines(form.allowedDomains).filter((d) => d.toLowerCase() !== NPM_REGISTRY)];
  const rules = {
    ...kept,
    ...(allowWrite.length ? { allowWrite } : {}),
    ...(denyRead.length ? { denyRead } : {}),
    ...(allowedDomains.length ? { allowedDomains } : {}),
  };
  return Object.keys(rules).length ? rules : true;
}

const PATH = /^(~|~\/.*|\/.*|\$\{harbor:[a-z]+\}.*|[A-Za-z]:[\\/].*)$/;
const HOST = /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Field → one sentence: sandbox.allowWrite, sandbox.denyRead, sandbox.allowedDomains. */
export function validateSandboxForm(form: SandboxFormData): Record<string, string> {
  if (!form.enabled) return {};
  const errors: Record<string, string> = {};
  for (const key of ['allowWrite', 'denyRead'] as const) {
    const bad = lines(form[key]).find((path) => !PATH.test(path));
    if (bad) errors[`sandbox.${key}`] = `"${bad}" is not an absolute path: start it with / or ~/.`;
  }
  const badHost = lines(form.allowedDomains).find((host) => !HOST.test(host));
  if (badHost) {
    errors['sandbox.allowedDomains'] = badHost.includes('://') || badHost.includes('/') ? `"${badHost}": write only the host, e.g. api.example.com.` : `"${badHost}" is not a host name (e.g. api.example.com or *.example.com).`;
  }
  return errors;
}
