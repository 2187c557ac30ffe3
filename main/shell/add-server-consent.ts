/**
 * A harbor://add-server link becomes a launch-consent request, asked through the Host's one
 * consent queue — the same `consent.request` event (kind "launch"), dialog, `consent.pending` and
 * `consent.respond` as any first launch — showing exactly what would run: the command
 * line with its environment, or the URL (a remote server's approval, like any first connection). Only on approval is the server added to the registry;
 * the approval also covers its launch ("once": this run; "always": as configured now), so the
 * person is asked once, about exactly what they saw. Denial, closing the dialog or the deadline
 * passing adds nothing. One link at a time, and refusals are rate-limited (link-refusals.ts): a
 * page cannot stack up dialogs or flood the log.
 */
import type { ConsentChoice, ConsentRequest } from '../../preload/contract';
import { toErrorData } from '../host/errors';
import { markAsDisposed, trackDisposable, type Disposable } from '../host/lifecycle';
import { ServerConfig } from '../host/registry/schema';
import { describeLaunch, resolveLaunch } from '../host/servers/launch';
import { parseDeepLink, type AddServerLink } from './deep-link';
import { LinkRefusals } from './link-refusals';

export type LinkOutcome = 'added' | 'denied' | 'refused' | 'busy' | 'failed';

export interface AddServerConsentDeps {
  /** Asks the person through the Host's consent queue (host.consent.ask); an aborted signal takes the question down. */
  readonly ask: (request: Omit<ConsentRequest, 'id' | 'deadline'>, signal: AbortSignal) => Promise<ConsentChoice>;
  readonly serverExists: (name: string) => boolean;
  readonly addServer: (name: string, config: Record<string, unknown>) => Promise<unknown>;
  /** "always": approve launching it as configured now (persisted); "once": for this run. */
  readonly approveLaunch: (name: string, choice: 'once' | 'always') => void;
  /** Something the person must read (a refused link, a failed add): a message box in the app. */
  readonly notify: (title: string, message: string) => void;
  /** Brings the window forward so the dialog is seen. */
  readonly reveal?: () => void;
  readonly log?: (message: string) => void;
  /** After a refused link, how long further refusals stay silent (default 10 s). */
  readonly refusalQuietMs?: number;
  readonly now?: () => number;
}

const quote = (part: string) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part));

/** Exactly what will run, as one line: `NAME=value … command args`, or the URL. */
export function describeLinkLaunch(link: AddServerLink): NonNullable<ConsentRequest['launch']> {
  const config = ServerConfig.parse(link.config);
  // Links carry no ${…} variables (deep-link.ts refuses them), so nothing is expanded here.
  const spec = resolveLaunch(link.name, config, { node: '', resources: '', data: '' });
  if (spec.transport === 'http') return { commandLine: `${spec.url}${spec.legacySse ? ' (HTTP+SSE)' : ''}`, envNames: [] };
  const env = Object.entries(spec.env).map(([name, value]) => `${name}=${quote(value)}`);
  return {
    commandLine: [...env, describeLaunch(spec)].join(' '),
    envNames: Object.keys(spec.env).sort(),
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
  };
}

/** A remote link's address, as the remote-approval dialog shows it; undefined for a stdio link. */
function linkRemote(link: AddServerLink): ConsentRequest['remote'] {
  const spec = resolveLaunch(link.name, ServerConfig.parse(link.config), { node: '', resources: '', data: '' });
  return spec.transport === 'http' ? { url: spec.url, headerNames: [], ...(spec.legacySse ? { legacySse: true } : {}) } : undefined;
}

export class AddServerConsent implements Disposable {
  private readonly refusals: LinkRefusals;
  /** Aborted on dispose: a link question still waiting is taken down (a denial). */
  private readonly closing = new AbortController();
  /** One link at a time: true while a link's question waits for the person. */
  private waiting = false;

  constructor(private readonly deps: AddServerConsentDeps) {
    this.refusals = new LinkRefusals({
      notify: deps.notify,
      log: deps.log ?? (() => undefined),
      now: deps.now ?? Date.now,
      ...(deps.refusalQuietMs !== undefined ? { quietMs: deps.refusalQuietMs } : {}),
    });
    trackDisposable(this);
  }

  /** Handles one link, start to end; resolves with what happened (tests, the log). */
  async handle(link: string): Promise<LinkOutcome> {
    const log = this.deps.log ?? (() => undefined);
    if (this.waiting) {
      this.refusals.ignored('harbor:// link ignored: another one is waiting for your answer');
      return 'busy';
    }
    let parsed: AddServerLink;
    try {
      parsed = parseDeepLink(link);
    } catch (error) {
      const { message } = toErrorData(error);
      this.refusals.refused('Harbor did not add a server', message, message);
      return 'refused';
    }
    if (this.deps.serverExists(parsed.name)) {
      const message = `A server named "${parsed.name}" already exists. Nothing was changed; rename or remove that server first if you want this one.`;
      this.refusals.refused('Harbor did not add a server', message, `harbor:// link for "${parsed.name}" refused: the name is taken`);
      return 'refused';
    }
    const launch = describeLinkLaunch(parsed);
    log(`harbor:// link asks to add "${parsed.name}": ${launch.commandLine}`);
    this.deps.reveal?.();
    // A remote server is approved as any first connection is: its address and the header names it is sent (a link carries none).
    const remote = linkRemote(parsed);
    const choice = await this.ask({ kind: 'launch', server: parsed.name, trusted: false, options: ['once', 'always', 'deny'], launch, ...(remote ? { remote } : {}) });
    if (this.closing.signal.aborted) return 'denied';
    // Neither "conversation" nor "app-session" is offered here (the queue refuses them): not an approval.
    if (choice === 'deny' || choice === 'conversation' || choice === 'app-session') {
      log(`harbor:// link for "${parsed.name}": not approved, nothing added`);
      return 'denied';
    }
    try {
      await this.deps.addServer(parsed.name, parsed.config);
      this.deps.approveLaunch(parsed.name, choice);
      log(`harbor:// link: added "${parsed.name}" (launch approved ${choice === 'always' ? 'as configured' : 'for this run'})`);
      return 'added';
    } catch (error) {
      const { message } = toErrorData(error);
      log(`harbor:// link: adding "${parsed.name}" failed: ${message}`);
      this.deps.notify('Harbor could not add the server', message);
      return 'failed';
    }
  }

  dispose(): void {
    markAsDisposed(this);
    this.closing.abort(new Error('Harbor is quitting.'));
  }

  private async ask(request: Omit<ConsentRequest, 'id' | 'deadline'>): Promise<ConsentChoice> {
    this.waiting = true;
    try {
      return await this.deps.ask(request, this.closing.signal);
    } finally {
      this.waiting = false;
    }
  }
}
