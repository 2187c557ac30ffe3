import { isStdio, type ServerConfig } from '../../registry/schema';

/** An entry of VS Code's `inputs`: a value VS Code asks the person for when a server first starts. */
export interface InputDefinition {
  readonly id: string;
  /** "promptString", "pickString" or "command" (a command's value cannot be known outside VS Code). */
  readonly type?: string;
  readonly description?: string;
  readonly password?: boolean;
  readonly default?: string;
}

export interface FillContext {
  readonly inputs: readonly InputDefinition[];
  /** Values the person gave at import (`harbor import --set ID=VALUE`, the app's form), by input id. */
  readonly answers: Readonly<Record<string, string>>;
  /** Values of the apps' predefined variables known for this file (`userHome`, `workspaceFolder`, …). */
  readonly variables: Readonly<Record<string, string>>;
}

export interface FilledEntry {
  readonly config: ServerConfig;
  /** Each input whose value went in, and where the value came from. */
  readonly filled: ReadonlyMap<string, 'default' | 'given'>;
  /** env/headers keys that now hold a password input's value: they move to the keychain like any literal secret. */
  readonly secrets: ReadonlyArray<{ readonly where: 'env' | 'headers'; readonly key: string }>;
  readonly warnings: readonly string[];
}

const REFERENCE = /\$\{([^}]*)\}/g;
const ANY_REFERENCE = /\$\{[^}]*\}/;

/**
 * Fills another app's placeholders in one imported entry where the value is known: an input's
 * value the person gave or its `default`, and predefined variables such as `${userHome}`. A
 * password input's value is put only into env or headers — where the keychain step then moves it
 * out of the file — never into the command line or a URL (process lists, logs), and never into a
 * value that would keep another unfilled placeholder beside it (it could not move as one secret).
 * What stays unfilled is left as written: the registry reports it and the server does not start.
 */
export function fillPlaceholders(config: ServerConfig, ctx: FillContext): FilledEntry {
  const filled = new Map<string, 'default' | 'given'>();
  const secrets: Array<{ where: 'env' | 'headers'; key: string }> = [];
  const warnings: string[] = [];
  const definition = (id: string) => ctx.inputs.find((input) => input.id === id);
  const valueOf = (id: string): { value: string; from: 'default' | 'given' } | undefined => {
    if (Object.hasOwn(ctx.answers, id)) return { value: ctx.answers[id]!, from: 'given' };
    const fallback = definition(id)?.default;
    return fallback !== undefined ? { value: fallback, from: 'default' } : undefined;
  };

  /** The text with what is known filled in; `password` when a password input's value went in. */
  const fill = (text: string, where: string, holdsSecrets: boolean): { text: string; password: boolean } => {
    // Pass 1: everything but password inputs.
    const open = text.replace(REFERENCE, (whole, inner: string) => {
      const name = inner.trim();
      if (name.startsWith('input:')) {
        const id = name.slice(6);
        if (definition(id)?.password) return whole;
        const known = valueOf(id);
        if (!known) return whole;
        filled.set(id, known.from);
        return known.value;
      }
      return Object.hasOwn(ctx.variables, name) ? ctx.variables[name]! : whole;
    });
    const passwords = [...open.matchAll(REFERENCE)].filter((m) => m[1]!.trim().startsWith('input:') && definition(m[1]!.trim().slice(6))?.password);
    if (passwords.length === 0) return { text: open, password: false };
    // Pass 2: password inputs, only where the whole value can move to the keychain.
    const ids = passwords.map((m) => m[1]!.trim().slice(6));
    if (ids.some((id) => !valueOf(id))) return { text: open, password: false };
    const withValues = open.replace(REFERENCE, (whole, inner: string) => {
      const id = inner.trim().slice(6);
      return inner.trim().startsWith('input:') && ids.includes(id) ? valueOf(id)!.value : whole;
    });
    if (!holdsSecrets || ANY_REFERENCE.test(withValues)) {
      warnings.push(
        `${where}: the password input${ids.length === 1 ? '' : 's'} ${ids.map((id) => `\${input:${id}}`).join(', ')} ${holdsSecrets ? 'stands beside another unfilled placeholder' : 'cannot go into the command line or a URL'}, so ${ids.length === 1 ? 'it was' : 'they were'} left as written. Put the value in an ${holdsSecrets ? 'entry of its own' : 'environment variable or a header'} as \${secret:NAME}.`,
      );
      return { text: open, password: false };
    }
    for (const id of ids) filled.set(id, valueOf(id)!.from);
    return { text: withValues, password: true };
  };
  const plain = (text: string, where: string) => fill(text, where, false).text;

  let next: ServerConfig;
  if (isStdio(config)) {
    const env = mapValues(config.env, (key, value) => {
      const out = fill(value, `env.${key}`, true);
      if (out.password) secrets.push({ where: 'env', key });
      return out.text;
    });
    next = {
      ...config,
      command: plain(config.command, 'command'),
      ...(config.args ? { args: config.args.map((arg, i) => plain(arg, `args[${i}]`)) } : {}),
      ...(env ? { env } : {}),
      ...(config.cwd !== undefined ? { cwd: plain(config.cwd, 'cwd') } : {}),
    };
  } else {
    const headers = mapValues(config.headers, (key, value) => {
      const out = fill(value, `headers.${key}`, true);
      if (out.password) secrets.push({ where: 'headers', key });
      return out.text;
    });
    next = { ...config, url: plain(config.url, 'url'), ...(headers ? { headers } : {}) };
  }
  return { config: next, filled, secrets, warnings };
}

function mapValues(record: Readonly<Record<string, string>> | undefined, map: (key: string, value: string) => string): Record<string, string> | undefined {
  return record === undefined ? undefined : Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(key, value)]));
}
