/** The pure parts of skills: limits from the entry, paths inside the skill, what changed between two pinned file sets. */
import { describe, expect, it } from 'vitest';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { fileChanges, overLimits, resolveSkillFile } from '../../main/host/skills/skill-files';

const D = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;
const entry = (resources: Skill['resources']): Skill => ({ uri: 'skill://git/SKILL.md', frontmatter: { name: 'git', description: 'd' }, resources });
const GIT = entry([
  { uri: 'skill://git/SKILL.md', digest: D(1), size: 10 },
  { uri: 'skill://git/references/A.md', digest: D(2), size: 20 },
]);

describe('skill files', () => {
  it('resolves a path against the skill root, only to a listed file, never climbing out', () => {
    expect(resolveSkillFile(GIT, 'references/A.md')?.uri).toBe('skill://git/references/A.md');
    expect(resolveSkillFile(GIT, './references/A.md')?.uri).toBe('skill://git/references/A.md');
    expect(resolveSkillFile(GIT, 'references/../SKILL.md')).toBeUndefined();
    expect(resolveSkillFile(GIT, '../other/SKILL.md')).toBeUndefined();
    expect(resolveSkillFile(GIT, 'rebase/SKILL.md')).toBeUndefined();
    expect(resolveSkillFile(entry('dynamic'), 'SKILL.md')).toBeUndefined();
  });

  it('checks the limits from the entry: 512 files, 16 MiB', () => {
    expect(overLimits(GIT)).toBeUndefined();
    const many = Array.from({ length: 513 }, (_, i) => ({ uri: `skill://git/f${i}`, digest: D(3), size: 1 }));
    expect(overLimits(entry(many))).toMatch(/513 files/);
    expect(overLimits(entry([{ uri: 'skill://git/SKILL.md', digest: D(1), size: 16 * 1024 * 1024 + 1 }]))).toMatch(/16 MiB/);
    expect(overLimits(entry([{ uri: 'skill://git/SKILL.md', digest: D(1), size: 16 * 1024 * 1024 }]))).toBeUndefined();
  });

  it('names every changed, added and removed file', () => {
    const before = [
      { uri: 'skill://git/SKILL.md', digest: D(1), size: 10 },
      { uri: 'skill://git/old.md', digest: D(2), size: 5 },
    ];
    const after = [
      { uri: 'skill://git/SKILL.md', digest: D(4), size: 11 },
      { uri: 'skill://git/new.md', digest: D(5), size: 7 },
    ];
    expect(fileChanges(before, after)).toEqual([
      'changed: skill://git/SKILL.md (10 → 11 bytes, 111111111111 → 444444444444)',
      'added: skill://git/new.md (7 bytes)',
      'removed: skill://git/old.md',
    ]);
    expect(fileChanges(before, before)).toEqual([]);
  });
});
