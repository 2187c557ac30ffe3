import { HarborError } from '../errors';
import type { SecretStore } from '../secrets/store';

/** What planning an import reads from the keychain: which names exist, and what one holds. */
export type KeychainReader = Pick<SecretStore, 'list' | 'get'>;

/**
 * The keychain as a preview sees it: a preview writes nothing, so it needs no keychain. When the
 * keychain cannot be reached it reads as empty (names are planned as if none were taken) and
 * `problem()` says why, so the preview can warn that the real import will need one.
 */
export function keychainForPreview(store: KeychainReader): { readonly reader: KeychainReader; problem(): string | undefined } {
  let problem: string | undefined;
  const tolerate = <T>(fallback: T) => (error: unknown): T => {
    if (!(error instanceof HarborError) || error.code !== 'KEYCHAIN_UNAVAILABLE') throw error;
    problem ??= error.message;
    return fallback;
  };
  return {
    reader: {
      list: () => store.list().catch(tolerate<string[]>([])),
      get: (name) => store.get(name).catch(tolerate<string | undefined>(undefined)),
    },
    problem: () => problem,
  };
}

/** The keychain failed while a real import needed it: say what was not done, and how to see the plan without one. */
export function importNeedsKeychain(error: unknown, file: string, servers: { readonly withSecrets: readonly string[]; readonly without: readonly string[]; readonly secrets: number }): unknown {
  if (!(error instanceof HarborError) || error.code !== 'KEYCHAIN_UNAVAILABLE') return error;
  const { secrets, withSecrets, without } = servers;
  const holders = withSecrets.map((name) => `"${name}"`).join(', ');
  // The servers that hold no secret can still come in, and the person is told exactly how.
  const others = without.length > 0 ? ` To import the servers that need no keychain now: harbor import ${file} --only ${without.join(',')}` : '';
  return new HarborError(
    'KEYCHAIN_UNAVAILABLE',
    `Nothing was imported: ${file} holds ${secrets} secret value${secrets === 1 ? '' : 's'} that must move to the OS keychain (${holders} ${withSecrets.length === 1 ? 'holds it' : 'hold them'}), and no keychain is available. ${error.message} ` +
      `("--dry-run" shows the plan without a keychain.)${others}`,
    error.detail,
  );
}
