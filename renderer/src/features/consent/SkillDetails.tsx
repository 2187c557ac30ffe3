import type { ConsentRequest } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';
import { SkillFiles, frontmatterText } from '../skills/SkillFiles';

/**
 * What a skill load asks: the skill (name, URI), its frontmatter, every file with its size, and
 * SKILL.md's text as read and verified (not yet given to the model) — all the server's words,
 * shown as text.
 */
export function SkillSection({ skill }: { readonly skill: NonNullable<ConsentRequest['skill']> }) {
  return (
    <>
      <section className="consent__section" aria-label="Frontmatter">
        <h3 className="consent__subtitle">Frontmatter</h3>
        <pre className="consent__code">{frontmatterText(skill.frontmatter)}</pre>
        {'allowed-tools' in skill.frontmatter ? <p className="muted">A skill’s “allowed-tools” grants nothing: each tool still asks as usual.</p> : null}
      </section>
      <section className="consent__section" aria-label="Files">
        <h3 className="consent__subtitle">Files</h3>
        <SkillFiles files={skill.files} />
      </section>
      <section className="consent__section" aria-label="SKILL.md">
        <h3 className="consent__subtitle">SKILL.md</h3>
        {skill.text !== undefined ? (
          <pre className="consent__code consent__skill-text">{visibleText(skill.text, { multiline: true })}</pre>
        ) : (
          <p className="muted">Not read yet: Harbor reads nothing of a skill before you answer.</p>
        )}
      </section>
    </>
  );
}
