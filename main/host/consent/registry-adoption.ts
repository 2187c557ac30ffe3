import { isStdio, type ServerConfig } from '../registry/schema';
import { referencedSecretNames } from '../secrets/references';
import { ADOPTION_KEY, FRESH_ADOPTION, LEGACY_TABLES, type ConsentDatabase } from './database';
import { describeRemote, headerNames, launchKey, type ServerRef } from './identity';

/** A server of the registry as this version's first run finds it. */
export interface AdoptedServer {
  readonly ref: ServerRef;
  readonly config: ServerConfig;
  /** The URL with Harbor's variables expanded (what the person would be shown), for a remote server. */
  readonly url?: string;
  /**
   * How schema 0 hashed this server's launch (servers/launch.ts launchHash of the expanded spec):
   * its launch approval carries over only if it approved the launch as configured now.
   */
  readonly legacyLaunchHash?: string;
}

/**
 * Once, on the first run of a Harbor whose decisions are keyed by identity, in one transaction:
 * - decisions of schema 0, keyed by name, move to the identity that name has now (rows of names
 *   no longer in the registry, and launch approvals of another command line, are dropped);
 * - every secret a server's env or headers reference now is bound to that server, so what worked
 *   keeps working;
 * - every remote server configured now counts as approved (before, remote servers needed none).
 * The last two only for a data folder an older Harbor wrote: a fresh folder's registry (copied
 * in, planted by another program) carries no approvals and no secrets (#27.16).
 * Later runs never do this again: a file imported afterwards is not "migrated". Returns false
 * when it was done before.
 */
export function adoptRegistry(database: ConsentDatabase, servers: readonly AdoptedServer[], now: number): boolean {
  // Every later run reads one row and takes no write lock.
  const pending = (state: string | undefined) => state === 'pending' || state === FRESH_ADOPTION;
  if (!pending(database.meta(ADOPTION_KEY))) return false;
  return database.transaction(() => {
    const state = database.meta(ADOPTION_KEY);
    if (!pending(state)) return false;
    // Only a data folder an older Harbor wrote carries approvals of remote servers forward.
    const upgrade = state === 'pending';
    carryOverLegacy(database, servers);
    for (const { ref, config, url } of servers) {
      // A fresh folder's registry earned nothing: its servers ask for each secret they name.
      for (const secret of upgrade ? referencedSecretNames(config) : []) {
        database
          .sql("INSERT OR IGNORE INTO secret_bindings (secret, identity, server, origin, created_at) VALUES (?, ?, ?, 'migrated', ?)")
          .run(secret, ref.identity, ref.name, now);
      }
      if (upgrade && !isStdio(config)) {
        const legacySse = config.transport === 'sse' || config.type === 'sse';
        database
          .sql('INSERT OR IGNORE INTO launch_approvals (identity, server, launch_hash, command_line, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(ref.identity, ref.name, launchKey(config), describeRemote(url ?? config.url, headerNames(config), legacySse), now);
      }
    }
    database.setMeta(ADOPTION_KEY, 'done');
    return true;
  });
}

function carryOverLegacy(database: ConsentDatabase, servers: readonly AdoptedServer[]): void {
  // Schema 0 created its four tables together; a file from before any of them has nothing to carry.
  if (!LEGACY_TABLES.every((table) => database.tableExists(`legacy_${table}`))) return dropLegacy(database);
  for (const { ref, config, legacyLaunchHash } of servers) {
    const args = [ref.identity, ref.name];
    database.db
      .prepare(`INSERT OR IGNORE INTO tool_approvals (identity, server, tool, kind, fingerprint, definition, created_at)
        SELECT ?1, server, tool, kind, fingerprint, definition, created_at FROM legacy_tool_approvals WHERE server = ?2`)
      .run(...args);
    database.db
      .prepare(`INSERT INTO tool_changes (identity, server, tool, before, after, changed, at)
        SELECT ?1, server, tool, before, after, changed, at FROM legacy_tool_changes WHERE server = ?2 ORDER BY id`)
      .run(...args);
    database.db
      .prepare(`INSERT OR IGNORE INTO policy_overrides (identity, server, tool, mode)
        SELECT ?1, server, tool, mode FROM legacy_policy_overrides WHERE server = ?2`)
      .run(...args);
    if (isStdio(config) && legacyLaunchHash !== undefined) {
      database.db
        .prepare(`INSERT OR IGNORE INTO launch_approvals (identity, server, launch_hash, command_line, created_at)
          SELECT ?1, server, ?3, command_line, created_at FROM legacy_launch_approvals WHERE server = ?2 AND launch_hash = ?4`)
        .run(...args, launchKey(config), legacyLaunchHash);
    }
  }
  dropLegacy(database);
}

function dropLegacy(database: ConsentDatabase): void {
  for (const table of LEGACY_TABLES) database.db.exec(`DROP TABLE IF EXISTS legacy_${table}`);
}
