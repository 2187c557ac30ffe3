import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { HarborError } from '../errors';
import type { KeptUserValue } from '../registry/install-fields';
import { secretRef } from '../secrets/references';
import type { BundleManifest, UserConfigOption } from './manifest';

/** A value the person gave for one user_config key: typed (the app) or as text (the CLI's --set). */
export type GivenValue = string | number | boolean | string[];

/** user_config answered: what the launch is built from, what goes to the keychain, and what the registry keeps. */
export interface AnsweredConfig {
  /** Per key: the value, a sensitive one as its `${secret:…}` reference. */
  readonly values: Record<string, GivenValue>;
  /** Sensitive values to store, under the names the references use. */
  readonly secrets: Array<{ readonly name: string; readonly value: string; readonly key: string }>;
  /** What the registry keeps for the next update (sensitive ones by secret name). */
  readonly kept: Record<string, KeptUserValue>;
}

/** `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}` as the manifest spec names them. */
export function systemDirs(home = homedir()): Record<string, string> {
  return { HOME: home, DESKTOP: join(home, 'Desktop'), DOCUMENTS: join(home, 'Documents'), DOWNLOADS: join(home, 'Downloads') };
}

const bad = (key: string, option: UserConfigOption, why: string) => new HarborError('BAD_REQUEST', `The setting "${key}" (${option.title}) ${why}. Nothing was installed.`);

function expandDirs(text: string): string {
  const dirs = systemDirs();
  return text.replace(/\$\{(HOME|DESKTOP|DOCUMENTS|DOWNLOADS)\}/g, (_whole, name: string) => dirs[name]!);
}

function checkPath(key: string, option: UserConfigOption, raw: string): string {
  const expanded = expandDirs(raw === '~' || raw.startsWith('~/') ? join(homedir(), raw.slice(1)) : raw);
  if (!isAbsolute(expanded)) throw bad(key, option, `needs a full path, got "${raw}"`);
  const wantsFolder = option.type === 'directory';
  if (!existsSync(expanded) || statSync(expanded).isDirectory() !== wantsFolder) throw bad(key, option, `names ${wantsFolder ? 'a folder' : 'a file'} that does not exist: ${expanded}`);
  return expanded;
}

/** One given value in the option's type, checked (range, paths, one value or many). */
function coerce(key: string, option: UserConfigOption, given: GivenValue): GivenValue {
  if (Array.isArray(given) && !option.multiple) {
    if (given.length !== 1) throw bad(key, option, 'takes one value');
    given = given[0]!;
  }
  if (option.multiple && (option.type === 'directory' || option.type === 'file')) {
    const list = (Array.isArray(given) ? given : [String(given)]).filter((item) => item !== '');
    return list.map((item) => checkPath(key, option, item));
  }
  const text = Array.isArray(given) ? given.join(',') : String(given);
  if (text.includes('${')) throw bad(key, option, 'may not contain "${" (Harbor would read it as a reference)');
  switch (option.type) {
    case 'number': {
      const n = typeof given === 'number' ? given : Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(n)) throw bad(key, option, `must be a number, got "${text}"`);
      if (option.min !== undefined && n < option.min) throw bad(key, option, `must be at least ${option.min}`);
      if (option.max !== undefined && n > option.max) throw bad(key, option, `must be at most ${option.max}`);
      return n;
    }
    case 'boolean': {
      if (typeof given === 'boolean') return given;
      const word = text.trim().toLowerCase();
      if (['true', 'yes', '1', 'on'].includes(word)) return true;
      if (['false', 'no', '0', 'off'].includes(word)) return false;
      throw bad(key, option, `must be true or false, got "${text}"`);
    }
    case 'directory':
    case 'file':
      return checkPath(key, option, text);
    default:
      return text;
  }
}

/** A setting's default with `${HOME}` and the other folders resolved (what the form starts with). */
export function defaultOf(option: UserConfigOption): GivenValue | undefined {
  const value = option.default;
  if (value === undefined) return undefined;
  if (typeof value === 'string') return expandDirs(value);
  return Array.isArray(value) ? value.map(expandDirs) : value;
}

function isEmpty(value: GivenValue | undefined): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * The person's answers to a bundle's user_config: given values, then what an earlier install of
 * this server kept, then the manifest's defaults. A required key without a value is an error
 * naming it; a key the bundle does not declare is refused (a typo in --set).
 */
export function answerUserConfig(
  manifest: BundleManifest,
  given: Readonly<Record<string, GivenValue>>,
  previous: Readonly<Record<string, KeptUserValue>>,
  secretName: (key: string) => string,
): AnsweredConfig {
  const options = manifest.user_config ?? {};
  const unknown = Object.keys(given).filter((key) => !Object.hasOwn(options, key));
  if (unknown.length > 0) {
    const known = Object.keys(options);
    throw new HarborError('BAD_REQUEST', `This bundle has no setting ${unknown.map((k) => `"${k}"`).join(', ')}. ${known.length ? `Its settings: ${known.join(', ')}.` : 'It has no settings.'} Nothing was installed.`);
  }
  const values: Record<string, GivenValue> = {};
  const secrets: AnsweredConfig['secrets'] = [];
  const kept: Record<string, KeptUserValue> = {};
  const missing: string[] = [];
  for (const [key, option] of Object.entries(options)) {
    const before = previous[key];
    if (option.sensitive) {
      const raw = given[key];
      if (!isEmpty(raw)) {
        const name = secretName(key);
        secrets.push({ name, value: String(Array.isArray(raw) ? raw.join(',') : raw), key });
        values[key] = secretRef(name);
        kept[key] = { secret: name };
      } else if (before && typeof before === 'object' && !Array.isArray(before) && typeof before.secret === 'string') {
        values[key] = secretRef(before.secret);
        kept[key] = { secret: before.secret };
      } else if (!isEmpty(defaultOf(option))) {
        values[key] = coerce(key, option, defaultOf(option)!);
      } else if (option.required) missing.push(key);
      continue;
    }
    const keptBefore = before !== undefined && (typeof before !== 'object' || Array.isArray(before)) ? (before as GivenValue) : undefined;
    const chosen = !isEmpty(given[key]) ? given[key] : !isEmpty(keptBefore) ? keptBefore : defaultOf(option);
    if (isEmpty(chosen)) {
      if (option.required) missing.push(key);
      continue;
    }
    const value = coerce(key, option, chosen!);
    values[key] = value;
    if (!isEmpty(given[key]) || !isEmpty(keptBefore)) kept[key] = value;
  }
  if (missing.length > 0) {
    const named = missing.map((key) => `"${key}" (${options[key]!.title})`).join(', ');
    throw new HarborError('BAD_REQUEST', `This bundle needs ${missing.length === 1 ? 'a setting' : 'settings'} that ${missing.length === 1 ? 'has' : 'have'} no value: ${named}. Give ${missing.length === 1 ? 'it' : 'each'} a value (harbor install … --set ${missing[0]}=VALUE). Nothing was installed.`);
  }
  return { values, secrets, kept };
}
