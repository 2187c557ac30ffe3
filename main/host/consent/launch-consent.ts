import type { ConsentChoice, ConsentRequest } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { ServerConfig } from '../registry/schema';
import { oauthSecretUses, secretUses, type SecretUse } from '../secrets/references';
import { describeLaunch, type LaunchSpec } from '../servers/launch';
import { describeRemote, headerNames, launchKey, type ServerRef } from './identity';
import type { ConsentStore } from './store';

/** One launch as the gate sees it: which server, whether the person trusts it, and what it runs or reaches. */
export interface LaunchTarget {
  readonly server: ServerRef;
  readonly trusted: boolean;
  /** The registry entry as written: what approvals are keyed by. */
  readonly config: ServerConfig;
  /** The launch with Harbor's variables expanded (secrets still references): what the person is shown. */
  readonly spec: LaunchSpec;
}

export type Ask = (request: Omit<ConsentRequest, 'id' | 'deadline'>) => Promise<ConsentChoice>;

/** A name as a shell argument in a suggested command (most names need no quotes). */
const shellArg = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/**
 * Before a server is started or first reached: launch consent (a stdio server's exact command
 * line, a remote server's URL and header names), then the secrets its env or headers reference.
 * Approvals are keyed by what the server is, so a changed command, URL or header set asks again,
 * whatever path changed it; "this time" approvals last as long as this process and cover exactly
 * the launch approved. A secret not set for the server is only sent once the person grants it.
 */
export class LaunchConsent {
  /** Launch keys approved for this run ("Start this time", --yes); "*" approves every launch. */
  private readonly session = new Set<string>();
  /** Launch keys the person denied (answered Deny, not a timeout) for this run: not asked again until they start it. */
  private readonly denied = new Set<string>();
  /** The launch key each server is being asked about now, so the person's Deny can be held for it. */
  private readonly asking = new Map<string, string>();

  constructor(
    private readonly store: ConsentStore,
    private readonly ask: Ask,
    private readonly interactive: boolean,
  ) {}

  async authorizeLaunch(target: LaunchTarget): Promise<void> {
    if (target.trusted) return;
    const key = launchKey(target.config);
    if (this.session.has('*') || this.session.has(key)) return;
    if (this.store.launchApproval(target.server.identity)?.launchHash === key) return;
    const { name } = target.server;
    const remote = remoteView(target);
    // Denied this run: held quietly (a chat turn does not ask again) until the person starts it.
    if (this.denied.has(key)) throw deniedError(name, remote !== undefined, true);
    const commandLine = describeLaunch(target.spec);
    if (!this.interactive) {
      const what = remote
        ? `Connecting to "${name}" sends requests to ${describeRemote(remote.url, remote.headerNames, remote.legacySse)}.`
        : `Launching "${name}" runs this on your machine: ${commandLine}.`;
      throw new HarborError(
        'CONSENT_REQUIRED',
        `${what} Approve it with --yes (this run) or harbor consent grant-launch ${shellArg(name)}, or mark the server "trusted": true.`,
      );
    }
    this.asking.set(name, key);
    const choice = await this.ask({
      kind: 'launch',
      server: name,
      trusted: target.trusted,
      options: ['once', 'always', 'deny'],
      launch: { commandLine, envNames: target.spec.transport === 'stdio' ? Object.keys(target.spec.env).sort() : [], ...(target.spec.transport === 'stdio' && target.spec.cwd ? { cwd: target.spec.cwd } : {}) },
      ...(remote ? { remote } : {}),
    }).finally(() => {
      if (this.asking.get(name) === key) this.asking.delete(name);
    });
    if (choice === 'deny') throw deniedError(name, remote !== undefined, this.denied.has(key));
    if (choice === 'always') this.approve(target);
    else this.session.add(key);
  }

  /** Whether this launch would start without asking (trusted, approved for this run or for good): asks nothing, records nothing. */
  isApproved(target: LaunchTarget): boolean {
    if (target.trusted) return true;
    const key = launchKey(target.config);
    return this.session.has('*') || this.session.has(key) || this.store.launchApproval(target.server.identity)?.launchHash === key;
  }

  /** Persists approval of a launch as configured now (the person named the server explicitly). */
  approve(target: LaunchTarget): void {
    this.denied.delete(launchKey(target.config));
    const remote = remoteView(target);
    const shown = remote ? describeRemote(remote.url, remote.headerNames, remote.legacySse) : describeLaunch(target.spec);
    this.store.approveLaunch(target.server, launchKey(target.config), shown);
  }

  /** `--yes`, "Start this time": one launch key (or "*", every launch) approved for this run only. */
  approveForSession(key: string): void {
    if (key === '*') this.denied.clear();
    else this.denied.delete(key);
    this.session.add(key);
  }

  /** The person answered Deny to the launch question of `server`: held for this run (see `forgetDenial`). */
  denyForSession(server: string): void {
    const key = this.asking.get(server);
    if (key !== undefined) this.denied.add(key);
  }

  /** The person starts the server themselves: its launch is asked about again. */
  forgetDenial(target: LaunchTarget): void {
    this.denied.delete(launchKey(target.config));
  }

  /**
   * Every `${secret:…}` the launch's env or headers — or the server's sign-in settings (`oauth`),
   * whose secrets go to the authorization server the remote names — reference must belong to this server. In the
   * app the person is asked, secret by secret, naming the server, what it runs or reaches and
   * where the value would go; "allow" is remembered. The CLI refuses with the command that grants it.
   */
  async authorizeSecrets(target: LaunchTarget): Promise<void> {
    const byName = new Map<string, SecretUse[]>();
    for (const use of [...secretUses(target.spec), ...oauthSecretUses((target.config as { oauth?: unknown }).oauth)]) {
      if (this.store.secrets.isBound(use.name, target.server.identity)) continue;
      byName.set(use.name, [...(byName.get(use.name) ?? []), use]);
    }
    if (byName.size === 0) return;
    const { name } = target.server;
    const what = describeLaunch(target.spec);
    const carriers = (uses: readonly SecretUse[]) => `${CARRIER[uses[0]!.field]}${uses.length > 1 ? 's' : ''} ${uses.map((u) => u.key).join(', ')}`;
    if (!this.interactive) {
      const lines = [...byName].map(([secret, uses]) => `"${secret}" (in ${carriers(uses)})`);
      throw new HarborError(
        'CONSENT_REQUIRED',
        `"${name}" (${what}) references the keychain secret${byName.size > 1 ? 's' : ''} ${lines.join(', ')}, which ${byName.size > 1 ? 'were' : 'was'} not set for this server. ` +
          `Harbor sends a secret only to the servers it belongs to. If "${name}" should have ${byName.size > 1 ? 'them' : 'it'}, run: ` +
          [...byName.keys()].map((secret) => `harbor secret grant ${secret} ${shellArg(name)}`).join(' and '),
      );
    }
    for (const [secret, uses] of byName) {
      const choice = await this.ask({
        kind: 'secret',
        server: name,
        trusted: target.trusted,
        options: ['always', 'deny'],
        secret: { name: secret, field: uses[0]!.field, keys: uses.map((u) => u.key), target: what },
      });
      if (choice === 'deny') throw new HarborError('CONSENT_DENIED', `You did not give "${name}" the secret "${secret}".`);
      this.store.secrets.bind(secret, target.server, 'granted');
    }
  }
}

function deniedError(name: string, remote: boolean, held: boolean): HarborError {
  const what = remote ? `You did not allow connecting to "${name}"` : `You did not allow launching "${name}"`;
  return new HarborError('CONSENT_DENIED', held ? `${what}; Harbor will not ask again until you start it yourself.` : `${what}.`);
}

const CARRIER: Readonly<Record<SecretUse['field'], string>> = { env: 'the environment variable', headers: 'the header', oauth: 'the sign-in setting' };

function remoteView(target: LaunchTarget): ConsentRequest['remote'] {
  if (target.spec.transport !== 'http') return undefined;
  return { url: target.spec.url, headerNames: headerNames(target.config), ...(target.spec.legacySse ? { legacySse: true } : {}) };
}
