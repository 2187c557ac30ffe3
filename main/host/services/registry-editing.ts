import type { RegistryProblem, RegistryView, ServerSummary } from '../../../preload/contract';
import type { ConsentGate } from '../consent/gate';
import { serverIdentity, serverRef, type ServerRef } from '../consent/identity';
import { HarborError } from '../errors';
import { checkRegistryText, withServerAdded, withServerRemoved, withServerUpdated, withToolEnabled } from '../registry/editor';
import type { RegistryFile, ServerConfig } from '../registry/schema';
import type { LoadedRegistry, RegistryEdit, UpdateOptions } from '../registry/store';
import type { AppliedChanges } from '../servers/manager';
import { referencedSecretNames } from '../secrets/references';
import type { RegistryState } from './registry-state';
import type { SecretService } from './secret-service';
import type { ServerControl } from './server-control';

/** A server's new configuration, or a change of the one in the file when the edit is applied. */
export type ServerChange = Record<string, unknown> | ((current: ServerConfig) => Record<string, unknown>);

function serverIn(file: RegistryFile, name: string): ServerConfig {
  const config = file.mcpServers?.[name];
  if (!config || !Object.hasOwn(file.mcpServers!, name)) throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}".`);
  return config;
}

/** A secret value the person typed into the server editor, stored in the keychain for that server. */
export interface SecretValue {
  readonly name: string;
  readonly value: string;
}

/**
 * Editing the registry (the app's server editor and raw JSON editor, the Tools view's switches):
 * every edit is checked, applied to the file as it is now under the registry lock, saved
 * atomically, and applied to the running servers — only what changed restarts, and a changed
 * launch asks for consent again before it starts (consent is keyed by what a server is, see
 * consent/identity.ts). Secret values typed into the editor go to
 * the keychain first and belong to the server they were typed for.
 */
export class RegistryEditing {
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly registry: RegistryState,
    private readonly servers: ServerControl,
    private readonly secrets: SecretService,
    private readonly consent: ConsentGate,
    private readonly configPath: string,
  ) {}

  /** (Re)reads the registry file and applies it; a bad file is reported (appInfo, view), not thrown. */
  async reload(): Promise<void> {
    await this.registry.reload();
    await this.servers.apply();
  }

  /**
   * Applies an edit to the registry file as it is now (under the registry lock, atomically,
   * keeping .bak) and applies the result; says which servers started, restarted or stopped.
   */
  async edit(edit: RegistryEdit, options?: UpdateOptions): Promise<AppliedChanges> {
    return this.inTurn(async () => {
      await this.registry.update(edit, options);
      return this.servers.apply();
    });
  }

  /**
   * The file changed on disk (the watcher, registry-watch.ts): read it again and apply it, in turn
   * with Harbor's own edits (so one of them is never taken for a change by hand). Undefined when
   * the text is what Harbor last read or wrote; a broken file keeps the last good registry running.
   */
  async followFile(): Promise<{ problems: RegistryProblem[]; changes?: AppliedChanges } | undefined> {
    return this.inTurn(async () => {
      const read = await this.registry.refresh();
      if (!read || read.problems.length > 0) return read;
      return { problems: [], changes: await this.servers.apply() };
    });
  }

  /** One edit or reread at a time, in the order they came. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.then(
      () => undefined,
      () => undefined, // the caller of `run` gets the failure; the next one still runs
    );
    return run;
  }

  /** Throws the file's problems (CLI: exit 2); the app shows them instead. */
  requireValid(): LoadedRegistry {
    return this.registry.requireValid();
  }

  /**
   * The registry for the app's editor: the file's own text (as the person wrote it) and, when it
   * is broken, each problem with the line it is on.
   */
  async view(): Promise<RegistryView> {
    const file = this.registry.file;
    const { text: raw, hash } = await this.registry.text();
    // The file as it is: broken by hand while the last good registry runs, its problems are the file's.
    const checked = raw !== undefined ? checkRegistryText(raw) : undefined;
    return {
      path: this.configPath,
      hash,
      text: raw ?? (file ? `${JSON.stringify(file, null, 2)}\n` : ''),
      servers: Object.entries(file?.mcpServers ?? {}).map(([name, config]) => ({ name, config: { ...config } })),
      problems:
        checked && checked.problems.length > 0
          ? checked.problems
          : this.registry.problems.map((line) => {
              const sep = line.indexOf(': ');
              return sep > 0 ? { path: line.slice(0, sep), message: line.slice(sep + 2) } : { path: '(file)', message: line };
            }),
    };
  }

  /** Adds a server (the editor, a harbor:// link); `secrets`: values typed for it, stored in the keychain first. */
  async add(name: string, config: Record<string, unknown>, secrets: readonly SecretValue[] = []): Promise<ServerSummary> {
    const file = withServerAdded(this.registry.requireValid().file, name, config);
    await this.storeSecrets(serverRef(name, file.mcpServers![name]!), file.mcpServers![name]!, secrets);
    await this.edit((current) => withServerAdded(current, name, config));
    return this.servers.get(name);
  }

  /**
   * Replaces a server's configuration (the editor). The secrets the server had and still
   * references stay its own under the new configuration; a changed command line or URL still asks
   * for launch consent before it starts. `config` may be a change of the server's configuration as
   * it is in the file when the edit is applied (a switch turned), so nothing else is undone.
   */
  async update(name: string, config: ServerChange, newName?: string, secrets: readonly SecretValue[] = []): Promise<ServerSummary> {
    const current = this.registry.requireValid();
    const change = typeof config === 'function' ? config : () => config;
    const file = withServerUpdated(current.file, name, change(serverIn(current.file, name)), newName);
    const next = file.mcpServers![newName ?? name]!;
    const ref = serverRef(newName ?? name, next);
    const before = current.servers.get(name);
    const kept = before ? this.consent.secretsOf(serverIdentity(before)).filter((secret) => referencedSecretNames(next).has(secret)) : [];
    for (const secret of kept) this.consent.bindSecret(secret, ref, 'set');
    await this.storeSecrets(ref, next, secrets);
    await this.edit((now) => withServerUpdated(now, name, change(serverIn(now, name)), newName));
    return this.servers.get(newName ?? name);
  }

  async remove(name: string): Promise<boolean> {
    this.registry.requireValid();
    await this.edit((current) => withServerRemoved(current, name));
    return true;
  }

  /**
   * Raw JSON editing: nothing is written unless the whole text is valid. Saved, its servers are
   * started and restarted exactly as an edit in the form would (see ServerManager.apply). `hash`:
   * of the text the editor loaded (registry.get); a file that changed since is refused, not replaced.
   */
  async saveText(text: string, hash?: string): Promise<{ saved: boolean; problems: RegistryProblem[]; started?: string[]; restarted?: string[]; hash?: string }> {
    const checked = checkRegistryText(text);
    if (!checked.file) return { saved: false, problems: checked.problems };
    const file = checked.file;
    // Written as typed: the person's comments and layout are theirs.
    const { started, restarted } = await this.edit(() => file, hash === undefined ? { text } : { ifHash: hash, text });
    // Saved; a mistake in "model" alone is still reported (chat and sampling wait for it).
    return { saved: true, problems: checked.problems, started: [...started], restarted: [...restarted], hash: (await this.registry.text()).hash };
  }

  /** The raw JSON editor's check as the person types: what saving would report, writing nothing. */
  check(text: string): { problems: RegistryProblem[] } {
    return { problems: checkRegistryText(text).problems };
  }

  /** Keychain first (the registry must never reference a value that was not stored), then the binding. */
  private async storeSecrets(server: ServerRef, config: ServerConfig, secrets: readonly SecretValue[]): Promise<void> {
    const referenced = referencedSecretNames(config);
    const stray = secrets.filter((s) => !referenced.has(s.name));
    if (stray.length > 0) {
      throw new HarborError('BAD_REQUEST', `The configuration of "${server.name}" does not reference ${stray.map((s) => `\${secret:${s.name}}`).join(', ')}: nothing was saved.`);
    }
    for (const { name, value } of secrets) {
      await this.secrets.set(name, value);
      this.consent.bindSecret(name, server, 'set');
    }
  }

  /** Turns one tool of a server on or off; a disabled tool is never offered to the model. The server keeps running. */
  async setToolEnabled(server: string, tool: string, enabled: boolean): Promise<{ disabledTools: string[] }> {
    if (!this.registry.requireValid().servers.has(server)) throw new HarborError('SERVER_NOT_FOUND', `No server named "${server}".`);
    let next: ServerConfig | undefined;
    await this.update(server, (config) => (next = withToolEnabled(config, tool, enabled)) as Record<string, unknown>);
    return { disabledTools: [...(next?.disabledTools ?? [])] };
  }
}

