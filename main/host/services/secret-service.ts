import type { ConsentGate } from '../consent/gate';
import { HarborError } from '../errors';
import { isStdio } from '../registry/schema';
import type { Redactor } from '../secrets/redactor';
import { referencedSecretNames } from '../secrets/references';
import { assertSecretName, type SecretStore } from '../secrets/store';
import type { ServerIdentities } from './server-identities';
import type { RegistryState } from './registry-state';

/** Who a secret is for: the servers it belongs to, and those that reference it without it. */
export interface SecretOwnership {
  readonly secret: string;
  /** Configured servers the secret belongs to (set for them, granted, or carried over). */
  readonly belongsTo: string[];
  /** Configured servers whose env or headers reference it but that were never given it. */
  readonly notGranted: string[];
}

/**
 * Secrets by name for the front doors (the app's Secrets page, `harbor secret`) and for the Host's
 * own users of a value (the chat's model key). Every value set or read here joins the redactor
 * first, so from then on it is masked wherever Harbor shows or logs text. Values never leave the
 * Host: the front doors learn names only — and which servers each secret belongs to.
 */
export class SecretService {
  constructor(
    private readonly store: SecretStore,
    private readonly redactor: Redactor,
    private readonly consent: ConsentGate,
    private readonly registry: RegistryState,
    private readonly identities: ServerIdentities,
  ) {}

  /** Names only, sorted; throws KEYCHAIN_UNAVAILABLE (with the fix) when the store cannot be read. */
  list(): Promise<string[]> {
    return this.store.list();
  }

  /** One read of the store for the app's page: the names, or why they cannot be read (with the fix). */
  async overview(): Promise<{ names: string[]; available: boolean; reason?: string }> {
    try {
      return { names: await this.store.list(), available: true };
    } catch (error) {
      return { names: [], available: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  async set(name: string, value: string): Promise<void> {
    await this.store.set(name, value);
    this.redactor.add(value);
  }

  /** True when a secret was deleted, false when there was none. */
  delete(name: string): Promise<boolean> {
    return this.store.delete(name);
  }

  /** A value for use inside the Host (never for a front door); it joins the redactor. */
  async resolve(name: string): Promise<string | undefined> {
    const value = await this.store.get(name);
    if (value !== undefined) this.redactor.add(value);
    return value;
  }

  /**
   * `harbor secret grant NAME SERVER`: the person gives a server a secret it references but that
   * was not set for it. Refused when the server does not reference it (a grant for a
   * configuration that changes would be lost with the change anyway).
   */
  grant(secret: string, server: string): { secret: string; server: string; granted: boolean } {
    assertSecretName(secret);
    const { config, identity } = this.identities.of(server);
    if (!referencedSecretNames(config).has(secret)) {
      throw new HarborError(
        'BAD_REQUEST',
        `"${server}" does not reference \${secret:${secret}} in its ${isStdio(config) ? 'env' : 'headers'}: nothing was granted. Add the reference first, then grant it.`,
      );
    }
    const granted = !this.consent.isSecretBound(secret, identity);
    this.consent.bindSecret(secret, { name: server, identity }, 'granted');
    return { secret, server, granted };
  }

  /** Takes a secret back from a server; false when it did not have it. */
  revoke(secret: string, server: string): boolean {
    assertSecretName(secret);
    return this.consent.unbindSecret(secret, this.identities.of(server).identity);
  }

  /** Every secret bound to or referenced by a configured server, with who has it and who only asks for it. */
  owners(): SecretOwnership[] {
    const bound = new Map<string, Set<string>>();
    const names = this.identities.names();
    for (const { secret, identity } of this.consent.decisions().secrets) {
      for (const name of names.get(identity) ?? []) bound.set(secret, (bound.get(secret) ?? new Set()).add(name));
    }
    const referenced = new Map<string, Set<string>>();
    for (const [name, config] of this.registry.servers) {
      for (const secret of referencedSecretNames(config)) referenced.set(secret, (referenced.get(secret) ?? new Set()).add(name));
    }
    return [...new Set([...bound.keys(), ...referenced.keys()])].sort().map((secret) => {
      const belongsTo = [...(bound.get(secret) ?? [])].sort();
      return { secret, belongsTo, notGranted: [...(referenced.get(secret) ?? [])].filter((name) => !belongsTo.includes(name)).sort() };
    });
  }
}
