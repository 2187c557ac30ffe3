/**
 * Naming rules the Host enforces and the app's editor checks as the person types: one copy, so
 * the form never accepts what the registry then refuses (or the other way round).
 */

/**
 * Characters that change how a name reads without being seen: controls, bidi and other format
 * characters, default-ignorables (zero-width spaces, tag characters, …), line separators, and
 * spaces other than U+0020. The renderer shows them escaped wherever server text appears
 * (renderer/src/lib/visible-text.ts); a server name, by which the person recognises a server in
 * every consent dialog, must not contain them at all.
 */
const UNSEEN_IN_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[^\S ]/gu;

/** A name quoted for a message, its unseen characters as \u escapes (never acting on the reader). */
function quoteName(name: string): string {
  return JSON.stringify(name).replace(UNSEEN_IN_NAME, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16).toUpperCase()}}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/**
 * Why `name` cannot be a server's name, or undefined when it can: a name with an invisible or
 * control character, or with a space at either end, could pass for another ("github " for
 * "github"). Every way a name enters (the file, the editor, import, links) is checked with this.
 */
export function serverNameProblem(name: string): string | undefined {
  if (name === '') return 'a server name must not be empty';
  if (name.trim() === '') return `the server name ${quoteName(name)} is only spaces: give the server a visible name`;
  const unseen = name.match(UNSEEN_IN_NAME);
  if (unseen) {
    return `the server name ${quoteName(name)} contains an invisible or control character (${quoteName(unseen[0]).slice(1, -1)}), which could make it pass for another name: rename it using visible characters only`;
  }
  if (name !== name.trim()) return `the server name ${quoteName(name)} starts or ends with a space, which could make it pass for ${quoteName(name.trim())}: remove the space`;
  return undefined;
}

/**
 * The names Harbor's own editor gives servers (the form, a rename, an import's "rename to"): plain
 * letters and digits, spaces, ".", "_" and "-", starting with a letter or digit. Files written by
 * other apps may hold other names; those stay usable as long as `serverNameProblem` accepts them.
 */
export const EDITOR_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;

/** Why the editor cannot name a server `name` (one sentence, without a trailing period), or undefined. */
export function editorServerNameProblem(name: string): string | undefined {
  const problem = serverNameProblem(name);
  if (problem) return problem;
  if (name.length > 100) return 'a server name has at most 100 characters';
  if (!EDITOR_SERVER_NAME.test(name)) return 'use letters, digits, spaces, ".", "_" or "-", starting with a letter or digit';
  return undefined;
}

/**
 * An environment variable name every platform and shell passes on unchanged: letters, digits and
 * "_", not starting with a digit. "bad name" or "A=B" would reach the server mangled, or not at all.
 */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why `name` is not a usable environment variable name (one sentence, no trailing period), or undefined. */
export function envNameProblem(name: string): string | undefined {
  if (name === '') return 'give the variable a name';
  if (/\s/.test(name)) return 'a variable name cannot contain spaces: use "_" instead, e.g. API_KEY';
  if (/^[0-9]/.test(name)) return 'a variable name cannot start with a digit';
  if (!ENV_NAME.test(name)) return 'a variable name uses letters, digits and "_" only, e.g. API_KEY';
  return undefined;
}
