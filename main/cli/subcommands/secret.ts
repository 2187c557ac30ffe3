import { HarborError } from '../../host/errors';
import type { Host } from '../../host/host';
import { MIN_MASKED_LENGTH } from '../../host/secrets/redactor';
import type { CliCommandCode, CliContext } from '../command';
import { SECRET_USAGE } from '../usage';
import { EXIT, UsageError } from '../output';
import { promptLine } from '../prompt';
import { reportError } from '../run';

/** A secret is a token or a key, not a file: anything longer is a mistake (a wrong pipe). */
export const MAX_SECRET_BYTES = 64 * 1024;


/** The registry schema and secret-name rules bring zod: loaded when a secret command runs, not when the CLI starts. */
async function loadTools() {
  const [{ isStdio }, { findSecretRefs, oauthSecretUses }, { assertSecretName }] = await Promise.all([
    import('../../host/registry/schema'),
    import('../../host/secrets/references'),
    import('../../host/secrets/store'),
  ]);
  return { isStdio, findSecretRefs, oauthSecretUses, assertSecretName };
}
type Tools = Awaited<ReturnType<typeof loadTools>>;

/**
 * `harbor secret set NAME` (the value from stdin, never argv), `harbor secret list` (names, and
 * the servers each belongs to), `harbor secret delete NAME`, `harbor secret grant|revoke NAME
 * SERVER` (a secret is sent only to the servers it belongs to). The keychain unavailable: exit 5
 * with KEYCHAIN_UNAVAILABLE and the fix. Deleting a secret that does not exist: exit 2 with
 * SECRET_MISSING, so a typo in a script does not pass silently.
 */
export const secretCommand: CliCommandCode = {
  async run(ctx) {
    const [action, name, extra] = ctx.args;
    const tools = await loadTools();
    switch (action) {
      case 'set':
        if (extra !== undefined) {
          throw new UsageError(
            'the value is read from stdin, never from the command line (it would end up in your shell history and in process lists). ' +
              `Example: printf %s "$TOKEN" | harbor secret set ${name ?? 'NAME'}`,
          );
        }
        return setSecret(ctx, tools, required(tools, name, 'set'));
      case 'list':
        if (name !== undefined) throw new UsageError(`secret list takes no argument. Usage: harbor ${SECRET_USAGE}`);
        return listSecrets(ctx, tools);
      case 'delete':
        if (extra !== undefined) throw new UsageError(`secret delete takes one NAME. Usage: harbor ${SECRET_USAGE}`);
        return deleteSecret(ctx, tools, required(tools, name, 'delete'));
      case 'grant':
      case 'revoke':
        if (extra === undefined) throw new UsageError(`secret ${action} needs NAME and SERVER. Usage: harbor ${SECRET_USAGE}`);
        return action === 'grant' ? grantSecret(ctx, required(tools, name, action), extra) : revokeSecret(ctx, required(tools, name, action), extra);
      default:
        throw new UsageError(`unknown secret action "${action ?? ''}". Usage: harbor ${SECRET_USAGE}`);
    }
  },
};

function required({ assertSecretName }: Tools, name: string | undefined, action: string): string {
  if (name === undefined) throw new UsageError(`secret ${action} needs a NAME. Usage: harbor ${SECRET_USAGE}`);
  assertSecretName(name); // BAD_REQUEST: exit 2, before anything is read or stored
  return name;
}

async function setSecret(ctx: CliContext, tools: Tools, name: string): Promise<number> {
  const input = process.stdin.isTTY
    ? await promptLine(`Value for secret "${name}" (not shown; Enter to finish): `, { signal: ctx.signal, hidden: true, undone: 'nothing was stored', maxLength: MAX_SECRET_BYTES })
    : await readAll(process.stdin, ctx.signal);
  const value = secretValueFromInput(input);
  if (value.length === 0) {
    throw new HarborError('BAD_REQUEST', `No value on stdin for secret "${name}": nothing was stored. Example: printf %s "$TOKEN" | harbor secret set ${name}`);
  }
  const host = await ctx.host();
  await host.secrets.set(name, value);
  const users = referencesTo(tools, host, name);
  const owners = host.secrets.owners().find((o) => o.secret === name);
  ctx.out.result(
    { name, set: true },
    [
      `Stored secret "${name}" in the OS keychain.`,
      users.length ? `Used by: ${users.join(', ')} (restart ${users.length === 1 ? 'that server' : 'those servers'} to use the new value).` : `Reference it in a server's env or headers as \${secret:${name}}.`,
      ...(owners?.notGranted.length ? [notGrantedLine(name, owners.notGranted)] : []),
    ].join('\n'),
  );
  if (value.length < MIN_MASKED_LENGTH) ctx.out.info(`note: values shorter than ${MIN_MASKED_LENGTH} characters are not masked in Harbor's logs and output.`);
  return EXIT.OK;
}

async function listSecrets(ctx: CliContext, tools: Tools): Promise<number> {
  const host = await ctx.host();
  // OAuth tokens live in the same store under harbor-oauth.*: Harbor manages those (login/logout).
  const names = (await host.secrets.list()).filter((n) => !n.startsWith('harbor-oauth.'));
  const referenced = allReferences(tools, host);
  const owners = new Map(host.secrets.owners().map((o) => [o.secret, o]));
  const missing = [...referenced.keys()].filter((n) => !names.includes(n)).sort();
  const lines = names.flatMap((n) => {
    const owner = owners.get(n);
    const used = referenced.has(n) ? `${n}  (used by ${referenced.get(n)!.join(', ')})` : n;
    const head = `${used}  belongs to: ${owner?.belongsTo.length ? owner.belongsTo.join(', ') : '(no server)'}`;
    return owner?.notGranted.length ? [head, `  ${notGrantedLine(n, owner.notGranted)}`] : [head];
  });
  if (missing.length) {
    lines.push('', 'referenced in the registry but not set (run "harbor secret set NAME"):');
    for (const n of missing) lines.push(`  ${n}  (used by ${referenced.get(n)!.join(', ')})`);
  }
  if (names.length === 0 && !missing.length) ctx.out.info('No secrets stored. Add one with: printf %s "$TOKEN" | harbor secret set NAME');
  ctx.out.result(names, lines.join('\n'));
  return EXIT.OK;
}

async function deleteSecret(ctx: CliContext, tools: Tools, name: string): Promise<number> {
  const host = await ctx.host();
  if (!(await host.secrets.delete(name))) {
    reportError(ctx.out, new HarborError('SECRET_MISSING', `There is no secret named "${name}": nothing was deleted. "harbor secret list" shows the names.`));
    return EXIT.USAGE;
  }
  const users = referencesTo(tools, host, name);
  ctx.out.result(
    { name, deleted: true },
    `Deleted secret "${name}".${users.length ? ` ${users.join(', ')} still reference${users.length === 1 ? 's' : ''} it and will not start until it is set again.` : ''}`,
  );
  return EXIT.OK;
}

async function grantSecret(ctx: CliContext, name: string, server: string): Promise<number> {
  const host = await ctx.host();
  host.registry.requireValid();
  const { granted } = host.secrets.grant(name, server);
  ctx.out.result(
    { secret: name, server, granted: true },
    granted ? `"${server}" may now use the secret "${name}" (as configured now; a changed command line or URL needs a new grant).` : `"${server}" already had the secret "${name}".`,
  );
  return EXIT.OK;
}

async function revokeSecret(ctx: CliContext, name: string, server: string): Promise<number> {
  const host = await ctx.host();
  host.registry.requireValid();
  const revoked = host.secrets.revoke(name, server);
  ctx.out.result({ secret: name, server, revoked }, revoked ? `"${server}" no longer gets the secret "${name}".` : `"${server}" did not have the secret "${name}": nothing changed.`);
  return EXIT.OK;
}

/** Servers that reference a secret they were never given: they do not get it until the person grants it. */
function notGrantedLine(name: string, servers: readonly string[]): string {
  return `not given to ${servers.join(', ')} (Harbor will not send it until you run ${servers.map((s) => `"harbor secret grant ${name} ${s}"`).join(' or ')})`;
}

/** `value\n` from `echo` or a file: exactly one line ending goes, anything else is the value. */
export function secretValueFromInput(input: string): string {
  if (input.endsWith('\r\n')) return input.slice(0, -2);
  if (input.endsWith('\n')) return input.slice(0, -1);
  return input;
}

/** Secret name → servers (with the field) whose env/headers or sign-in settings reference it. An invalid registry: none. */
function allReferences({ isStdio, findSecretRefs, oauthSecretUses }: Tools, host: Host): Map<string, string[]> {
  const refs = new Map<string, string[]>();
  let servers;
  try {
    servers = host.registry.requireValid().servers;
  } catch {
    return refs;
  }
  for (const [server, config] of servers) {
    const field = isStdio(config) ? 'env' : 'headers';
    const record = (isStdio(config) ? config.env : config.headers) ?? {};
    for (const [key, value] of Object.entries(record)) {
      for (const name of findSecretRefs(value)) refs.set(name, [...(refs.get(name) ?? []), `${server} (${field}.${key})`]);
    }
    for (const use of oauthSecretUses((config as { oauth?: unknown }).oauth)) refs.set(use.name, [...(refs.get(use.name) ?? []), `${server} (${use.key})`]);
  }
  return refs;
}

function referencesTo(tools: Tools, host: Host, name: string): string[] {
  return allReferences(tools, host).get(name) ?? [];
}

function readAll(stream: NodeJS.ReadableStream, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      signal.removeEventListener('abort', onAbort);
      if (error) {
        stream.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > MAX_SECRET_BYTES) finish(new HarborError('BAD_REQUEST', `The value on stdin is longer than ${MAX_SECRET_BYTES / 1024} KiB: nothing was stored. A secret is a token or a key.`));
      else chunks.push(buffer);
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(new HarborError('BAD_REQUEST', `Cannot read the value from stdin: ${error.message}. Nothing was stored.`));
    const onAbort = () => finish(new UsageError('interrupted: nothing was stored.'));
    if (signal.aborted) return onAbort();
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
