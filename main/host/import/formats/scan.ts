import { launchStrings } from '../../registry/placeholders';
import { isStdio, type ServerConfig } from '../../registry/schema';

/**
 * Keys whose literal values are credentials. The brief's set (TOKEN, KEY, SECRET, PASSWORD,
 * Authorization) plus the spellings that mean the same thing (PASSWD, CREDENTIAL, Cookie).
 */
const SECRET_KEY = /token|key|secret|password|passwd|credential|authorization|cookie/i;

export function looksSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

const REFERENCE = /\$\{[^}]*\}/g;

/**
 * True when the value holds the credential itself rather than a reference to one:
 * `ghp_abc…` and `Bearer abc…` are literal; `${input:token}`, `Bearer ${env:TOKEN}` and
 * `${secret:github}` are not.
 */
export function isLiteralValue(value: string): boolean {
  const rest = value.replace(REFERENCE, '').replace(/^\s*(bearer|basic|token|digest)\b/i, '');
  return rest.trim().length > 0;
}

export interface VariableUse {
  /** The whole reference as written, e.g. `${input:api-key}`. */
  readonly variable: string;
  /** `input`, `env`, `secret`, or the bare name (`workspaceFolder`, `userHome`, …). */
  readonly kind: string;
  /** The part after the colon: the input id, the variable name; else the bare name. */
  readonly name: string;
  readonly where: string;
}

/** Every `${…}` in the fields a server is launched or reached with. */
export function findVariables(config: ServerConfig): VariableUse[] {
  const uses: VariableUse[] = [];
  for (const [where, text] of launchStrings(config)) {
    for (const match of text.matchAll(REFERENCE)) {
      const inner = match[0].slice(2, -1).trim();
      const colon = inner.indexOf(':');
      uses.push({
        variable: match[0],
        kind: colon > 0 ? inner.slice(0, colon) : inner,
        name: colon > 0 ? inner.slice(colon + 1) : inner,
        where,
      });
    }
  }
  return uses;
}

/** Locations of literal values under secret-looking env/header keys. */
export function findLiteralSecrets(config: ServerConfig): Array<{ where: 'env' | 'headers'; key: string }> {
  const map = isStdio(config) ? config.env : config.headers;
  const where = isStdio(config) ? 'env' : 'headers';
  return Object.entries(map ?? {})
    .filter(([key, value]) => looksSecretKey(key) && isLiteralValue(value))
    .map(([key]) => ({ where, key }));
}
