import { launchKey, serverIdentity, type ServerRef } from '../consent/identity';
import { HarborError } from '../errors';
import type { ServerConfig } from '../registry/schema';
import type { RegistryState } from './registry-state';

/**
 * Names ↔ identities, from the registry as the Host last read it: front doors name servers,
 * consent keys decisions by what the servers are (consent/identity.ts).
 */
export class ServerIdentities {
  /**
   * Each registry entry's identity, computed once: hashing the launch (canonical JSON + SHA-256)
   * is the dearest step of a tool call's consent check otherwise. Keyed by the entry object: the
   * registry is parsed afresh on every read and an edit builds a new entry, never changing one in
   * place, so a changed launch is a new key (and the old one is collected with its entry).
   */
  private readonly identities = new WeakMap<ServerConfig, string>();
  /** Each entry's launch key (consent/identity.ts), computed once the same way: `harbor exec --yes` approves it on every call. */
  private readonly launchKeys = new WeakMap<ServerConfig, string>();

  constructor(private readonly registry: RegistryState) {}

  /** The configured server with this name; SERVER_NOT_FOUND otherwise. */
  of(name: string): ServerRef & { readonly config: ServerConfig } {
    const config = this.registry.server(name);
    if (!config) {
      throw new HarborError('SERVER_NOT_FOUND', `No server named "${name}". Known servers: ${[...this.registry.servers.keys()].join(', ') || '(none)'}.`);
    }
    return { name, identity: this.identityOf(config), config };
  }

  /** What a launch approval of the configured server with this name covers (SERVER_NOT_FOUND otherwise). */
  launchKeyOf(name: string): string {
    const { config } = this.of(name);
    let key = this.launchKeys.get(config);
    if (key === undefined) this.launchKeys.set(config, (key = launchKey(config)));
    return key;
  }

  /** Just the name and identity of the configured server with this name (SERVER_NOT_FOUND otherwise). */
  ref(name: string): ServerRef {
    const { identity } = this.of(name);
    return { name, identity };
  }

  find(name: string): ServerRef | undefined {
    const config = this.registry.server(name);
    return config ? { name, identity: this.identityOf(config) } : undefined;
  }

  /** identity → the names it is configured under now (usually one). */
  names(): Map<string, string[]> {
    const names = new Map<string, string[]>();
    for (const [name, config] of this.registry.servers) {
      const identity = this.identityOf(config);
      names.set(identity, [...(names.get(identity) ?? []), name]);
    }
    return names;
  }

  /** The identities of the registry as read now; undefined while the file has problems (then nothing is known). */
  current(): Set<string> | undefined {
    if (!this.registry.file) return undefined;
    return new Set([...this.registry.servers.values()].map((config) => this.identityOf(config)));
  }

  private identityOf(config: ServerConfig): string {
    let identity = this.identities.get(config);
    if (identity === undefined) this.identities.set(config, (identity = serverIdentity(config)));
    return identity;
  }
}
