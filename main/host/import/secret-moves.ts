import { secretNameFor } from '../../../preload/contract';
import { isStdio, type ServerConfig } from '../registry/schema';
import { secretRef } from '../secrets/references';
import type { SecretStore } from '../secrets/store';
import type { KeychainReader } from './keychain-preview';

/** A literal value found at import under a secret-looking key (the importer's SecretFinding). */
export interface LiteralSecret {
  readonly server: string;
  readonly where: 'env' | 'headers';
  readonly key: string;
}

/** One value moved (or to be moved) into the keychain. `value` stays in main and is never printed. */
export interface SecretMove extends LiteralSecret {
  /** The keychain name the registry now references. */
  readonly secret: string;
  readonly value: string;
  /** The keychain already holds this exact value under this name (importing the same file again). */
  readonly reused: boolean;
}

export interface SecretMovePlan {
  /** The imported servers with each moved literal replaced by its `${secret:…}` reference. */
  readonly servers: Array<{ readonly name: string; readonly config: ServerConfig }>;
  readonly moves: SecretMove[];
  /** Literals that cannot be moved as a whole (they mix text with `${…}` references). */
  readonly notMoved: LiteralSecret[];
}

/**
 * `Bearer abc` keeps its scheme in the registry (`Bearer ${secret:…}`) and only `abc` goes to the
 * keychain, so a server echoing the bare token is masked too. A value holding a `${…}` reference
 * besides literal text cannot be moved as one secret.
 */
function splitLiteral(value: string): { prefix: string; secret: string } | undefined {
  if (value.includes('${')) return undefined;
  const scheme = /^(\s*(?:bearer|basic|token|digest)\s+)(\S[\s\S]*)$/i.exec(value);
  return scheme ? { prefix: scheme[1]!, secret: scheme[2]! } : { prefix: '', secret: value };
}

/**
 * Plans moving imported literal secrets into the keychain: picks a name per value
 * (`<server>-<key>`, then `-2`, `-3`… when the name holds a different value; reusing a name that
 * already holds the same value, so importing a file twice changes nothing) and rewrites the
 * configs to reference them. Reads the store (throws KEYCHAIN_UNAVAILABLE), writes nothing.
 */
export async function planSecretMoves(
  servers: ReadonlyArray<{ readonly name: string; readonly config: ServerConfig }>,
  findings: readonly LiteralSecret[],
  store: KeychainReader,
): Promise<SecretMovePlan> {
  const existing = new Set(findings.length > 0 ? await store.list() : []);
  const claimed = new Map<string, string>(); // name → value, within this import
  const moves: SecretMove[] = [];
  const notMoved: LiteralSecret[] = [];

  const pickName = async (base: string, value: string): Promise<{ name: string; reused: boolean }> => {
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}-${n}`;
      const mine = claimed.get(name);
      if (mine !== undefined) {
        if (mine === value) return { name, reused: false };
        continue;
      }
      if (!existing.has(name)) return { name, reused: false };
      if ((await store.get(name)) === value) return { name, reused: true };
    }
  };

  const rewritten = [];
  for (const server of servers) {
    const mine = findings.filter((f) => f.server === server.name);
    if (mine.length === 0) {
      rewritten.push(server);
      continue;
    }
    const config = server.config;
    const record = { ...((isStdio(config) ? config.env : config.headers) ?? {}) };
    for (const finding of mine) {
      const literal = record[finding.key];
      const parts = literal === undefined ? undefined : splitLiteral(literal);
      if (!parts) {
        notMoved.push(finding);
        continue;
      }
      const { name, reused } = await pickName(secretNameFor(server.name, finding.key), parts.secret);
      claimed.set(name, parts.secret);
      record[finding.key] = `${parts.prefix}${secretRef(name)}`;
      moves.push({ ...finding, secret: name, value: parts.secret, reused });
    }
    rewritten.push({ name: server.name, config: isStdio(config) ? { ...config, env: record } : { ...config, headers: record } });
  }
  return { servers: rewritten, moves, notMoved };
}

/**
 * Writes the planned values into the keychain. All or nothing: when one write fails, the ones
 * this call made are deleted again (best effort) and the KEYCHAIN_UNAVAILABLE error is thrown.
 * Returns an undo for the caller to run if what comes next (saving the registry) fails.
 */
export async function applySecretMoves(moves: readonly SecretMove[], store: SecretStore): Promise<() => Promise<void>> {
  const written: string[] = [];
  const undo = async () => {
    // Best effort: the error that made us undo reaches the caller; a secret left behind is referenced by
    // nothing and the next import of that name overwrites it.
    for (const name of written) await store.delete(name).catch(() => false);
  };
  try {
    for (const move of moves) {
      if (move.reused || written.includes(move.secret)) continue;
      await store.set(move.secret, move.value);
      written.push(move.secret);
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}
