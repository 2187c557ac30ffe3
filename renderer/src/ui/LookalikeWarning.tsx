import { visibleText } from '../lib/visible-text';

/**
 * What looks like something else about a server — a name or host written in two scripts
 * ("harbor-nоtes" with a Cyrillic о), as the Host found it (#27.12) — said wherever the server is
 * shown for a decision: its card and every consent dialog. The Host's own words, one per line.
 */
export function LookalikeWarning({ problems }: { readonly problems: readonly string[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  return (
    <div className="notice notice--warn lookalike-warning" role="note" aria-label="Look-alike warning">
      <strong>Check this is the server you mean:</strong>
      <ul>
        {problems.map((problem) => (
          <li key={problem}>{visibleText(problem)}</li>
        ))}
      </ul>
    </div>
  );
}
