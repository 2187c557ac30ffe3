import { assertSecretName, assertSecretValue, type SecretStore, type SecretStoreStatus } from './store';

/** An in-memory SecretStore for tests that do not exercise the keychain itself. */
export class MemorySecretStore implements SecretStore {
  private readonly values: Map<string, string>;

  constructor(initial: Readonly<Record<string, string>> = {}) {
    this.values = new Map(Object.entries(initial));
  }

  get(name: string): Promise<string | undefined> {
    assertSecretName(name);
    return Promise.resolve(this.values.get(name));
  }

  set(name: string, value: string): Promise<void> {
    assertSecretName(name);
    assertSecretValue(name, value);
    this.values.set(name, value);
    return Promise.resolve();
  }

  delete(name: string): Promise<boolean> {
    assertSecretName(name);
    return Promise.resolve(this.values.delete(name));
  }

  list(): Promise<string[]> {
    return Promise.resolve([...this.values.keys()].sort());
  }

  status(): Promise<SecretStoreStatus> {
    return Promise.resolve({ available: true });
  }

  dispose(): void {
    this.values.clear();
  }
}
