import type { Redactor } from '../secrets/redactor';
import type { SecretStore } from '../secrets/store';

/**
 * Secrets by name for the front doors (the app's Secrets page, `harbor secret`) and for the Host's
 * own users of a value (the chat's model key). Every value set or read here joins the redactor
 * first, so from then on it is masked wherever Harbor shows or logs text. Values never leave the
 * Host: the front doors learn names only.
 */
export class SecretService {
  constructor(
    private readonly store: SecretStore,
    private readonly redactor: Redactor,
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
}
