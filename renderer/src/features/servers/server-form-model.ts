/**
 * The server editor's form as plain data, and its translation to and from a registry entry. Pure:
 * unit-tested without a DOM. Secret values typed into the form never go into the config: they are
 * stored in the keychain (secrets.set) and the config gets a `${secret:NAME}` reference.
 */
import { editorServerNameProblem, envNameProblem, secretNameFor } from '../../../../preload/contract';
import { sandboxConfigFromForm, sandboxFormFromConfig, validateSandboxForm, type SandboxFormData } from '../sandbox/sandbox-form-model';

export interface ArgRow {
  readonly id: string;
  readonly value: string;
}

export interface KeyValueRow {
  readonly id: string;
  readonly key: string;
  /** Plain text, or for a secret the new value to store (empty = keep the stored one). */
  readonly value: string;
  readonly secret: boolean;
  /** The keychain name this row already references (an existing `${secret:NAME}`). */
  readonly secretName?: string;
  /** The person chose to type a new value for the stored secret. */
  readonly replacing?: boolean;
}

export interface ServerFormData {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly command: string;
  readonly args: readonly ArgRow[];
  readonly env: readonly KeyValueRow[];
  readonly cwd: string;
  readonly url: string;
  readonly headers: readonly KeyValueRow[];
  /** The legacy HTTP+SSE transport instead of Streamable HTTP. */
  readonly legacySse: boolean;
  readonly enabled: boolean;
  readonly trusted: boolean;
  /** Per-request timeout in seconds; empty = Harbor's default. */
  readonly timeoutSeconds: string;
  /** Local servers: the sandbox it runs in. */
  readonly sandbox: SandboxFormData;
  /** Fields of the entry this form does not edit (disabledTools, other apps' fields): kept as they were. */
  readonly extra: Readonly<Record<string, unknown>>;
}

const MANAGED = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'transport', 'type', 'enabled', 'trusted', 'timeoutMs', 'sandbox']);
const WHOLE_REF = /^\$\{secret:([A-Za-z0-9._-]{1,128})\}$/;
const HEADER_KEY = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

let nextId = 0;
export const rowId = (): string => `r${++nextId}`;

export function emptyServerForm(): ServerFormData {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    args: [],
    env: [],
    cwd: '',
    url: '',
    headers: [],
    legacySse: false,
    enabled: true,
    trusted: false,
    timeoutSeconds: '',
    sandbox: sandboxFormFromConfig(undefined),
    extra: {},
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): Record<string, string> =>
  isRecord(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};

function rowsOf(record: Record<string, string>): KeyValueRow[] {
  return Object.entries(record).map(([key, value]) => {
    const ref = WHOLE_REF.exec(value);
    return ref ? { id: rowId(), key, value: '', secret: true, secretName: ref[1]! } : { id: rowId(), key, value, secret: false };
  });
}

/** A registry entry as the form shows it. */
export function formFromConfig(name: string, config: Readonly<Record<string, unknown>>): ServerFormData {
  const stdio = typeof config.command === 'string';
  const extra = Object.fromEntries(Object.entries(config).filter(([key]) => !MANAGED.has(key)));
  return {
    name,
    transport: stdio ? 'stdio' : 'http',
    command: typeof config.command === 'string' ? config.command : '',
    args: Array.isArray(config.args) ? config.args.map((a) => ({ id: rowId(), value: String(a) })) : [],
    env: rowsOf(strings(config.env)),
    cwd: typeof config.cwd === 'string' ? config.cwd : '',
    url: typeof config.url === 'string' ? config.url : '',
    headers: rowsOf(strings(config.headers)),
    legacySse: config.transport === 'sse' || config.type === 'sse',
    enabled: config.enabled !== false,
    trusted: config.trusted === true,
    timeoutSeconds: typeof config.timeoutMs === 'number' ? String(config.timeoutMs / 1000) : '',
    sandbox: sandboxFormFromConfig(config.sandbox),
    extra,
  };
}

export interface SecretWrite {
  readonly name: string;
  readonly value: string;
}

/** The registry entry for a valid form, and the secrets to store before saving it. */
export function configFromForm(form: ServerFormData): { config: Record<string, unknown>; secrets: SecretWrite[] } {
  const secrets: SecretWrite[] = [];
  const record = (rows: readonly KeyValueRow[]): Record<string, string> | undefined => {
    const out: Record<string, string> = {};
    for (const row of rows) {
      const key = row.key.trim();
      if (!key) continue;
      if (row.secret) {
        const name = row.secretName ?? secretNameFor(form.name.trim(), key);
        if (row.value !== '') secrets.push({ name, value: row.value });
        out[key] = `\${secret:${name}}`;
      } else {
        out[key] = row.value;
      }
    }
    return Object.keys(out).length ? out : undefined;
  };
  const config: Record<string, unknown> = { ...form.extra };
  if (form.transport === 'stdio') {
    config.command = form.command.trim();
    const args = form.args.map((a) => a.value).filter((a) => a !== '');
    if (args.length) config.args = args;
    const env = record(form.env);
    if (env) config.env = env;
    if (form.cwd.trim()) config.cwd = form.cwd.trim();
    const sandbox = sandboxConfigFromForm(form.sandbox);
    if (sandbox) config.sandbox = sandbox;
  } else {
    config.url = form.url.trim();
    const headers = record(form.headers);
    if (headers) config.headers = headers;
    if (form.legacySse) config.transport = 'sse';
  }
  if (!form.enabled) config.enabled = false;
  if (form.trusted) config.trusted = true;
  const seconds = Number(form.timeoutSeconds);
  if (form.timeoutSeconds.trim() !== '' && Number.isFinite(seconds) && seconds > 0) config.timeoutMs = Math.round(seconds * 1000);
  return { config, secrets };
}

/** Field path → one sentence. Paths: name, command, url, cwd, timeoutSeconds, env.<rowId>.key|value, headers.<rowId>.key|value. */
export type FormErrors = Readonly<Record<string, string>>;

export function validateServerForm(form: ServerFormData, takenNames: ReadonlySet<string>): FormErrors {
  const errors: Record<string, string> = {};
  // The registry's own rule, as typed: a space at either end is the kind of name that passes for another.
  const name = form.name;
  const nameProblem = name === '' ? undefined : editorServerNameProblem(name);
  if (name.trim() === '') errors.name = 'Give the server a name.';
  else if (nameProblem) errors.name = sentence(nameProblem);
  else if (takenNames.has(name)) errors.name = `A server named "${name}" already exists.`;

  if (form.transport === 'stdio') {
    if (!form.command.trim()) errors.command = 'Say which program starts the server, e.g. npx or /usr/local/bin/node.';
    else if (/\$\{secret:/.test(form.command) || form.args.some((a) => /\$\{secret:/.test(a.value))) {
      errors.command = 'Secrets cannot go in the command line (it shows in process lists): put them in an environment variable.';
    }
  } else {
    const url = form.url.trim();
    if (!url) errors.url = 'Give the server\'s address, e.g. https://example.com/mcp.';
    else if (!isHttpUrl(url)) errors.url = 'Must be an http:// or https:// address.';
  }
  if (form.transport === 'stdio') Object.assign(errors, validateSandboxForm(form.sandbox));
  checkRows(errors, 'env', form.transport === 'stdio' ? form.env : [], envNameProblem);
  checkRows(errors, 'headers', form.transport === 'http' ? form.headers : [], (key) => (HEADER_KEY.test(key) ? undefined : 'a header name uses letters, digits and - only'));

  if (form.timeoutSeconds.trim() !== '') {
    const seconds = Number(form.timeoutSeconds);
    if (!Number.isFinite(seconds) || seconds <= 0) errors.timeoutSeconds = 'A number of seconds greater than 0, or empty for the default.';
  }
  return errors;
}

/** "a variable name …" → "A variable name ….": the shared rules speak in fragments. */
function sentence(fragment: string): string {
  return `${fragment.charAt(0).toUpperCase()}${fragment.slice(1)}.`;
}

function checkRows(errors: Record<string, string>, field: 'env' | 'headers', rows: readonly KeyValueRow[], keyProblem: (key: string) => string | undefined): void {
  const seen = new Set<string>();
  for (const row of rows) {
    const key = row.key.trim();
    if (!key) {
      if (row.value !== '' || row.secretName) errors[`${field}.${row.id}.key`] = 'Give it a name, or remove the row.';
      continue;
    }
    const folded = field === 'headers' ? key.toLowerCase() : key;
    const problem = keyProblem(row.key);
    if (problem) errors[`${field}.${row.id}.key`] = sentence(problem);
    else if (seen.has(folded)) errors[`${field}.${row.id}.key`] = `"${key}" is already set above.`;
    seen.add(folded);
    if (row.secret && !row.secretName && row.value === '') errors[`${field}.${row.id}.value`] = 'Type the value to store in the keychain.';
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
