import { KeychainProcess } from './keychain-process';
import { assertSecretName, assertSecretValue, type SecretStore, type SecretStoreStatus } from './store';

export interface KeychainOptions {
  /** The keychain "service" all of Harbor's secrets live under (tests use a unique one). Default "Harbor". */
  readonly service?: string;
  /** How long one keychain call may take before it counts as unavailable. Default 3 s. */
  readonly timeoutMs?: number;
  readonly platform?: NodeJS.Platform;
  /** The environment keychain calls run in, e.g. another DBUS_SESSION_BUS_ADDRESS (tests). Default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
}

export const DEFAULT_KEYCHAIN_SERVICE = 'Harbor';

/**
 * Secrets in the OS keychain (macOS Keychain, Windows Credential Manager, Linux Secret Service)
 * through @napi-rs/keyring: service = "Harbor", account = the secret's name. Calls run in a helper
 * process under a timeout (see KeychainProcess); any failure is KEYCHAIN_UNAVAILABLE with the
 * cause and the fix, never a plain-text fallback. The helper starts on first use: a Host whose
 * servers reference no secret never touches the keychain.
 */
export class KeychainSecretStore implements SecretStore {
  readonly service: string;
  private readonly helper: KeychainProcess;

  constructor(options: KeychainOptions = {}) {
    this.service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
    this.helper = new KeychainProcess({
      service: this.service,
      timeoutMs: options.timeoutMs ?? 3_000,
      platform: options.platform ?? process.platform,
      ...(options.env ? { env: options.env } : {}),
    });
  }

  async get(name: string): Promise<string | undefined> {
    assertSecretName(name);
    const value = await this.helper.request({ op: 'get', account: name });
    return typeof value === 'string' ? value : undefined;
  }

  async set(name: string, value: string): Promise<void> {
    assertSecretName(name);
    assertSecretValue(name, value);
    await this.helper.request({ op: 'set', account: name, value });
  }

  async delete(name: string): Promise<boolean> {
    assertSecretName(name);
    return (await this.helper.request({ op: 'delete', account: name })) === true;
  }

  async list(): Promise<string[]> {
    const accounts = await this.helper.request({ op: 'list' });
    return Array.isArray(accounts) ? [...new Set(accounts.filter((a): a is string => typeof a === 'string'))].sort() : [];
  }

  async status(): Promise<SecretStoreStatus> {
    try {
      await this.list();
      return { available: true };
    } catch (error) {
      return { available: false, reason: (error as Error).message };
    }
  }

  dispose(): void {
    this.helper.dispose();
  }
}
