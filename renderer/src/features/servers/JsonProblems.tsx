import { CircleAlert, CircleCheck } from 'lucide-react';
import type { RegistryProblem } from '../../../../preload/contract';

interface Props {
  readonly id: string;
  readonly problems: readonly RegistryProblem[];
  /** The text changed since the last check (a check is due). */
  readonly checking: boolean;
  readonly onGoToLine: (line: number) => void;
}

/**
 * Under the JSON editor: whether the text is fine, or each problem with a button to its line.
 * A polite live region: it updates as the person types, so it must not interrupt them.
 */
export function JsonProblems({ id, problems, checking, onGoToLine }: Props) {
  if (problems.length === 0) {
    return (
      <p className="raw-editor__status raw-editor__status--ok" id={id} aria-live="polite">
        <CircleCheck aria-hidden="true" size={16} /> {checking ? 'Checking…' : 'No problems: this file can be saved.'}
      </p>
    );
  }
  return (
    <div className="raw-editor__status raw-editor__status--bad" id={id} aria-live="polite">
      <p className="raw-editor__status-line">
        <CircleAlert aria-hidden="true" size={16} /> {problems.length === 1 ? '1 problem' : `${problems.length} problems`}: the file is not saved until {problems.length === 1 ? 'it is' : 'they are'} fixed.
      </p>
      <ul className="raw-editor__problems" aria-label="Problems">
        {problems.map((problem, i) => (
          <li key={i}>
            {problem.line ? (
              <button type="button" className="button button--small button--quiet raw-editor__goto" onClick={() => onGoToLine(problem.line!)}>
                Line {problem.line}
              </button>
            ) : null}{' '}
            <code>{problem.path}</code>: {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
