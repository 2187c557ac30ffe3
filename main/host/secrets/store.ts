import { SECRET_NAME } from '../../../preload/contract';
import { HarborError } from '../errors';
import type { Disposable } from '../lifecycle';

/** What `status()` says: whether secrets can be read at all, and if not, why (with the fix). */
export interface SecretStoreStatus {
  readonly available: boolean;
  readonly reason?: string;
}

/**
 * Where Harbor keeps secrets: the OS keychain in the app and CLI, memory in tests that do not
 * exercise the keychain. A value never leaves main: callers outside the Host only learn names
 * ("set / not set"). Every method but `status()` throws KEYCHAIN_UNAVAILABLE (with the fix) when
 * the store cannot be reached; there is never a plain-text fallback.
 */
export interface SecretStore extends Disposable {
  /** The value, or undefined when no secret has this name. */
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  /** True when a secret was deleted, false when there was none. */
  delete(name: string): Promise<boolean>;
  /** Names only, sorted. */
  list(): Promise<string[]>;
  /** Never throws. */
  status(): Promise<SecretStoreStatus>;
}

/** Names are what `${secret:NAME}` references and `harbor secret set NAME` takes. */

export function isValidSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Throws BAD_REQUEST naming the rule; used by every store so a bad name never reaches the keychain. */
export function assertSecretName(name: string): void {
  if (!isValidSecretName(name)) {
    throw new HarborError(
      'BAD_REQUEST',
      `"${name}" is not a valid secret name: use 1 to 128 letters, digits, ".", "_" or "-" (for example "github-token").`,
    );
  }
}

export function assertSecretValue(name: string, value: string): void {
  if (value.length === 0) throw new HarborError('BAD_REQUEST', `The value for secret "${name}" is empty: nothing was stored.`);
}
