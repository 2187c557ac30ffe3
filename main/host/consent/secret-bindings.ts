import type { ConsentDatabase } from './database';
import type { ServerRef } from './identity';
import { BindingRow, type BindingOrigin, type SecretBinding } from './rows';

export type { BindingOrigin, SecretBinding } from './rows';

/**
 * Which servers each keychain secret belongs to: the servers it was set for (the editor, an
 * import that moved a literal value into the keychain), granted to by the person (`harbor secret
 * grant`, the app's dialog), or that referenced it when this version first ran. A
 * `${secret:NAME}` anywhere else is refused until the person grants it.
 *
 * Kept in consent.db, not in the registry and not beside the value in the keychain: the registry
 * is exactly what an imported file writes, so it cannot say who may read a secret; keychain
 * entries hold one value each and are slow to enumerate (a helper process per call), while this
 * table is read on every launch, is transactional with the other decisions, and goes with the
 * server when it is removed (ConsentStore.forget).
 */
export class SecretBindingTable {
  constructor(private readonly database: ConsentDatabase) {}

  isBound(secret: string, identity: string): boolean {
    return this.database.sql('SELECT 1 FROM secret_bindings WHERE secret = ? AND identity = ?').get(secret, identity) !== undefined;
  }

  /** Binds a secret to a server; an existing binding keeps its origin and date. */
  bind(secret: string, server: ServerRef, origin: BindingOrigin, now = Date.now()): void {
    this.database
      .sql('INSERT OR IGNORE INTO secret_bindings (secret, identity, server, origin, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(secret, server.identity, server.name, origin, now);
  }

  /** True when the server had the secret. */
  unbind(secret: string, identity: string): boolean {
    return Number(this.database.sql('DELETE FROM secret_bindings WHERE secret = ? AND identity = ?').run(secret, identity).changes) > 0;
  }

  /** The secrets bound to one server (to carry them over when the person edits it). */
  secretsOf(identity: string): string[] {
    return this.database
      .sql('SELECT secret FROM secret_bindings WHERE identity = ? ORDER BY secret')
      .all(identity)
      .map((row) => String(row.secret));
  }

  all(): SecretBinding[] {
    return this.database
      .sql('SELECT * FROM secret_bindings ORDER BY secret, server')
      .all()
      .map((row) => this.database.parse(BindingRow, row, 'secret_bindings'));
  }
}
