import { visibleText } from '../../lib/visible-text';
import { diffDefinitions, type DiffLine } from './definition-diff';

const MARK: Record<DiffLine['kind'], string> = { same: ' ', removed: '−', added: '+' };
const SPOKEN: Record<DiffLine['kind'], string> = { same: '', removed: 'Removed: ', added: 'Added: ' };
/** A line of the server's text, hidden characters made visible (indentation kept). */
const shown = (text: string) => (text ? visibleText(text, { multiline: true }) : ' ');

/**
 * What changed in a tool since the person approved it: each changed field with its lines marked
 * (− before, + now), unchanged fields named. Everything is the server's text, shown as text.
 */
export function DefinitionDiff({ before, after, changed }: { readonly before: unknown; readonly after: unknown; readonly changed: readonly string[] }) {
  const fields = diffDefinitions(before, after, changed);
  const differing = fields.filter((f) => f.changed);
  const same = fields.filter((f) => !f.changed);
  return (
    <section className="diff" aria-label="What changed since you approved it">
      {differing.map((field) => (
        <div key={field.field} className="diff__field">
          <h3 className="diff__name">
            {field.field}
            <span className="diff__tag">{field.presence === 'added' ? 'new' : field.presence === 'removed' ? 'removed' : 'changed'}</span>
          </h3>
          <ol className="diff__lines" aria-label={`Changes to ${field.field}`}>
            {field.lines.map((line, index) => (
              <li key={index} className={`diff__line diff__line--${line.kind}`}>
                <span className="diff__mark" aria-hidden="true">
                  {MARK[line.kind]}
                </span>
                <span className="visually-hidden">{SPOKEN[line.kind]}</span>
                {line.kind === 'removed' ? <del>{shown(line.text)}</del> : line.kind === 'added' ? <ins>{shown(line.text)}</ins> : <span>{shown(line.text)}</span>}
              </li>
            ))}
          </ol>
        </div>
      ))}
      {same.length > 0 ? <p className="diff__same">Unchanged: {same.map((f) => f.field).join(', ')}.</p> : null}
    </section>
  );
}
