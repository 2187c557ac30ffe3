import { visibleText } from '../../lib/visible-text';
import './skills.css';

/** A size as the entry states it, exactly (an approval is pinned to it). */
export const bytes = (size: number) => `${size.toLocaleString('en-US')} byte${size === 1 ? '' : 's'}`;

/** A skill's files as its server's entry lists them, each with its size; or why there is no list. */
export function SkillFiles({ files }: { readonly files: readonly { readonly path: string; readonly size: number }[] | 'dynamic' }) {
  if (files === 'dynamic') {
    return <p className="skill-files__dynamic">The server generates this skill’s files (“dynamic”): they have no digests, so Harbor cannot verify them, and it asks at every load.</p>;
  }
  return (
    <ul className="skill-files" aria-label="Files of the skill">
      {files.map((file) => (
        <li key={file.path} className="skill-files__file">
          <code>{visibleText(file.path)}</code> <span className="skill-files__size">{bytes(file.size)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Frontmatter as `key: value` lines (the server's words, shown as text). */
export function frontmatterText(frontmatter: Readonly<Record<string, unknown>>): string {
  const line = (key: string, value: unknown) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
  return visibleText(Object.entries(frontmatter).map(([key, value]) => line(key, value)).join('\n'), { multiline: true });
}
