/**
 * `harbor://add-server?config=…` links: a web page or another app proposes a server to add.
 *
 * Everything in a link is untrusted input from outside the machine's owner. It is parsed strictly
 * (one known action, one parameter, a size cap, a closed schema: no Harbor fields such as
 * "trusted", no `${…}` variables — a link must never pull a keychain secret into a URL or env —,
 * no environment variable that hooks a runtime or tool (link-env.ts), a server name that cannot
 * pass for another), and it only ever becomes a consent request
 * (add-server-consent.ts): nothing is added or launched until the person approves exactly what
 * will run.
 *
 *   config = base64url(JSON) or encodeURIComponent(JSON) of { "name": "...", "config": { ... } }
 */
import type { App } from 'electron';
import { z } from 'zod';
import { HarborError } from '../host/errors';
import { ServerConfig, serverNameProblem } from '../host/registry/schema';
import { codeLoadingSettings, codeLoadingWarning } from '../host/registry/code-loading-env';
import { linkEnvNameProblem, linkEnvValueProblem, linkLoadsCode, printable } from './link-env';

export const HARBOR_SCHEME = 'harbor';

/** Longest link accepted (the whole URL, as received). */
export const MAX_LINK_LENGTH = 8 * 1024;
/** Longest decoded JSON accepted. */
export const MAX_CONFIG_JSON_LENGTH = 4 * 1024;

const NoVariables = z.string().refine((value) => !value.includes('${'), {
  message: 'must not use ${…} variables (a link cannot reach Harbor secrets or paths; add the server in Harbor to use them)',
});

const LinkStdio = z
  .object({
    type: z.literal('stdio').optional(),
    command: NoVariables.pipe(z.string().min(1).max(1024)),
    args: z.array(NoVariables.pipe(z.string().max(4096))).max(64).optional(),
    env: z
      .record(z.string(), NoVariables.pipe(z.string().max(4096)))
      .refine((env) => Object.keys(env).length <= 32, { message: 'has more than 32 variables' })
      .superRefine((env, ctx) => {
        for (const [name, value] of Object.entries(env)) {
          // A code-loading name is said with its value, as a warning, once the link is read (codeLoadingRefusal).
          const problem = (linkLoadsCode(name) ? undefined : linkEnvNameProblem(name)) ?? linkEnvValueProblem(value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }
      })
      .optional(),
    cwd: NoVariables.pipe(z.string().max(1024)).optional(),
  })
  .strict();

const LinkRemote = z
  .object({
    type: z.enum(['http', 'streamable-http', 'sse']).optional(),
    url: NoVariables.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048)),
    transport: z.enum(['http', 'sse']).optional(),
  })
  .strict();

const LinkPayload = z
  .object({
    name: z
      .string()
      .superRefine((name, ctx) => {
        const problem = serverNameProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .pipe(z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,62}[A-Za-z0-9._-])?$/, 'must be 1–64 letters, digits, space, ".", "_" or "-", starting with a letter or digit')),
    config: z.union([LinkStdio, LinkRemote]),
  })
  .strict();

export interface AddServerLink {
  readonly action: 'add-server';
  readonly name: string;
  /** A valid registry entry: stdio {command, args, env, cwd} or remote {url, …}. Never "trusted". */
  readonly config: Record<string, unknown>;
}

function refuse(message: string): never {
  throw new HarborError('BAD_REQUEST', `This harbor:// link was not accepted: ${message}`);
}

function decodeConfigParam(value: string): unknown {
  const text = value.trimStart().startsWith('{')
    ? value
    : /^[A-Za-z0-9_-]+={0,2}$/.test(value)
      ? Buffer.from(value, 'base64url').toString('utf8')
      : refuse('"config" must be base64url-encoded or URI-encoded JSON.');
  if (text.length > MAX_CONFIG_JSON_LENGTH) refuse(`its configuration is longer than ${MAX_CONFIG_JSON_LENGTH} characters.`);
  try {
    return JSON.parse(text);
  } catch {
    return refuse('"config" is not valid JSON.');
  }
}

/** Parses and validates a link; throws HarborError(BAD_REQUEST) naming what is wrong. */
export function parseDeepLink(link: string): AddServerLink {
  if (link.length > MAX_LINK_LENGTH) refuse(`it is longer than ${MAX_LINK_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return refuse('it is not a valid URL.');
  }
  if (url.protocol !== `${HARBOR_SCHEME}:`) refuse(`it is not a ${HARBOR_SCHEME}:// link.`);
  // harbor://add-server?… (the host) — and harbor:add-server?… as some launchers rewrite it.
  const action = (url.host || url.pathname).replace(/\/+$/, '').toLowerCase();
  if (action !== 'add-server' || (url.host && url.pathname !== '' && url.pathname !== '/')) {
    refuse(`Harbor knows only harbor://add-server?config=…`);
  }
  if (url.username || url.password || url.port || url.hash) refuse('it carries parts an add-server link never has.');
  const keys = [...url.searchParams.keys()];
  if (keys.length !== 1 || keys[0] !== 'config') refuse('it must have exactly one parameter, "config".');
  const parsed = LinkPayload.safeParse(decodeConfigParam(url.searchParams.get('config') ?? ''));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'} ${i.message}`);
    refuse(problems.join('; '));
  }
  codeLoadingRefusal(parsed.data.name, parsed.data.config);
  // The registry's own schema too: what is added must load exactly like a hand-written entry.
  const asRegistry = ServerConfig.safeParse(parsed.data.config);
  if (!asRegistry.success) refuse(asRegistry.error.issues.map((i) => i.message).join('; '));
  return { action: 'add-server', name: parsed.data.name, config: { ...parsed.data.config } };
}

/**
 * A link never sets a variable that makes a runtime load or fetch code — in `env`, or from its
 * arguments (`env NAME=…`, `docker -e NAME=…`, `sh -c "NAME=… …"`) — by Harbor's one list
 * (registry/code-loading-env.ts) and the link's stricter families (link-env.ts). The person is told
 * each with its value, in the warning every install door says, and nothing is asked or added: a
 * link has no box to tick, so such a server is added in Harbor itself.
 */
function codeLoadingRefusal(server: string, config: Record<string, unknown>): void {
  const loading = codeLoadingSettings(config as { env?: Record<string, string>; args?: string[] }, linkLoadsCode);
  if (loading.length === 0) return;
  const them = loading.length === 1 ? 'it' : 'them';
  throw new HarborError(
    'BAD_REQUEST',
    `${codeLoadingWarning(server, loading.map(([name, value]) => [printable(name), value] as const))} A harbor:// link may not set ${them}: it changes which code runs, so the link was not accepted and nothing was added. ` +
      `If you trust this server, add it in Harbor yourself (Servers → Add server, or harbor import FILE --allow-env ${[...new Set(loading.map(([name]) => printable(name)))].join(',')}).`,
  );
}

/** The first harbor:// link in a command line (Windows and Linux pass links as an argument). */
export function findDeepLink(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${HARBOR_SCHEME}:`));
}

/**
 * Makes Harbor the handler of harbor:// links. Packaged only: the installers declare the scheme
 * (Info.plist, the .desktop file, the NSIS registry keys) and this call claims it on first run.
 * A development run does not, so it never takes links away from an installed Harbor.
 */
export function registerProtocolClient(app: Pick<App, 'setAsDefaultProtocolClient' | 'isPackaged'>, log: (message: string) => void): boolean {
  if (!app.isPackaged) {
    log('harbor:// links: not registered (development run)');
    return false;
  }
  const ok = app.setAsDefaultProtocolClient(HARBOR_SCHEME);
  log(ok ? 'harbor:// links: Harbor is the handler' : 'harbor:// links: the OS did not accept Harbor as the handler');
  return ok;
}

/**
 * Collects links from every way they arrive — the first launch's argv (Windows, Linux), a second
 * launch's argv ('second-instance'), macOS 'open-url' (which can come before the app is ready) —
 * and hands them to the handler once there is one; until then they wait.
 */
export class DeepLinkInbox {
  private handler: ((link: string) => void) | undefined;
  private readonly waiting: string[] = [];

  /** Links before the handler exists; more than a few is a flood, not a person clicking. */
  private static readonly MAX_WAITING = 4;

  push(link: string | undefined): void {
    if (!link) return;
    if (this.handler) this.handler(link);
    else if (this.waiting.length < DeepLinkInbox.MAX_WAITING) this.waiting.push(link);
  }

  fromArgv(argv: readonly string[]): void {
    this.push(findDeepLink(argv));
  }

  /** Binds macOS 'open-url'; call before 'ready' (a link that launched the app arrives early). */
  bindOpenUrl(app: Pick<App, 'on'>): void {
    app.on('open-url', (event, url) => {
      event.preventDefault();
      this.push(url);
    });
  }

  setHandler(handler: (link: string) => void): void {
    this.handler = handler;
    for (const link of this.waiting.splice(0)) handler(link);
  }
}

