import type { Skill } from '@modelcontextprotocol/client/ext/skills';

/** One file of a skill as an approval pins it: what the entry said of it. */
export interface PinnedFile {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** The Skills extension's limits per skill (the SDK's SKILL_LIMITS): checked from the entry, before any read. */
export const SKILL_FILE_LIMIT = 512;
export const SKILL_BYTE_LIMIT = 16 * 1024 * 1024;

/** The files of an entry, or undefined for a `"dynamic"` skill (which has no list to verify against). */
export function filesOf(entry: Skill): readonly PinnedFile[] | undefined {
  return entry.resources === 'dynamic' ? undefined : entry.resources.map(({ uri, digest, size }) => ({ uri, digest, size }));
}

/** What is wrong with an entry's size, in words; undefined when it is within the limits. */
export function overLimits(entry: Skill): string | undefined {
  const files = filesOf(entry);
  if (!files) return undefined;
  if (files.length > SKILL_FILE_LIMIT) return `it lists ${files.length} files; a skill may have at most ${SKILL_FILE_LIMIT}`;
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes > SKILL_BYTE_LIMIT) return `its files total ${bytes} bytes; a skill may have at most ${SKILL_BYTE_LIMIT} (16 MiB)`;
  return undefined;
}

export function totalBytes(entry: Skill): number | undefined {
  return filesOf(entry)?.reduce((sum, file) => sum + file.size, 0);
}

/** What changed between two pinned sets, one line per file ("changed: …", "added: …", "removed: …"). */
export function fileChanges(before: readonly PinnedFile[], after: readonly PinnedFile[]): string[] {
  const old = new Map(before.map((file) => [file.uri, file]));
  const now = new Map(after.map((file) => [file.uri, file]));
  const lines: string[] = [];
  for (const file of after) {
    const was = old.get(file.uri);
    if (!was) lines.push(`added: ${file.uri} (${file.size} bytes)`);
    else if (was.digest !== file.digest || was.size !== file.size) lines.push(`changed: ${file.uri} (${was.size} → ${file.size} bytes, ${short(was.digest)} → ${short(file.digest)})`);
  }
  for (const file of before) if (!now.has(file.uri)) lines.push(`removed: ${file.uri}`);
  return lines;
}

function short(digest: string): string {
  return digest.replace(/^sha256:/, '').slice(0, 12);
}

/** The skill's root (its SKILL.md's folder, with the trailing slash). */
export function skillRoot(entry: Skill): string {
  return entry.uri.slice(0, entry.uri.length - 'SKILL.md'.length);
}

/**
 * A supporting file named by the model: a path relative to the skill's root, resolved there, and
 * only a file the held entry lists. Undefined for anything else (an absolute URI elsewhere, a `..`
 * that climbs out, a file the entry does not list).
 */
export function resolveSkillFile(entry: Skill, path: string): PinnedFile | undefined {
  const files = filesOf(entry);
  if (!files) return undefined;
  const root = skillRoot(entry);
  const segments: string[] = [];
  for (const segment of path.replace(/^\.?\//, '').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return undefined;
    segments.push(segment);
  }
  const uri = root + segments.join('/');
  return files.find((file) => file.uri === uri);
}
