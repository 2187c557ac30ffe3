import { assertSecretName, assertSecretValue, type SecretStore, type SecretStoreStatus } from './store';

/** An in-memory SecretStore for tests that do not exercise the keychain itself. */
export class MemorySecretStore implements SecretStore {
  private readonly values: Map<string, string>;

  constructor(initial: Readonly<Record<string, string>> = {}) {
    this.values = new Map(Object.entries(initial));
  }

  // async: a bad name is a rejection, as with the keychain, never a synchronous throw.
  async get(name: string): Promise<string | undefined> {
    assertSecretName(name);
    return this.values.get(name);
  }

  async set(name: string, value: string): Promise<void> {
    assertSecretName(name);
    assertSecretValue(name, value);
    this.values.set(name, value);
  }

  async delete(name: string): Promise<boolean> {
    assertSecretName(name);
    return this.values.delete(name);
  }

  async list(): Promise<string[]> {
    return [...this.values.keys()].sort();
  }

  async status(): Promise<SecretStoreStatus> {
    return { available: true };
  }

  dispose(): void {
    this.values.clear();
  }
}
