import { secretNameFor } from '../../../preload/contract';

/**
 * A keychain name for a value an install stores: `<server>-<key>`, then `-2`, `-3`… while the
 * name is taken — a new install never overwrites a secret that may belong to another server.
 */
export function freeSecretName(server: string, key: string, taken: ReadonlySet<string>): string {
  const base = secretNameFor(server, key);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(name)) return name;
  }
}
