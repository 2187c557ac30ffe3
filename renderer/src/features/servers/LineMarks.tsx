import type { RefObject } from 'react';
import type { RegistryProblem } from '../../../../preload/contract';

interface Props {
  readonly text: string;
  readonly problems: readonly RegistryProblem[];
  /** Scrolled with the text area (it has no scrollbar of its own). */
  readonly layerRef: RefObject<HTMLDivElement | null>;
}

function problemsByLine(problems: readonly RegistryProblem[]): Map<number, string[]> {
  const byLine = new Map<number, string[]>();
  for (const problem of problems) if (problem.line) byLine.set(problem.line, [...(byLine.get(problem.line) ?? []), problem.message]);
  return byLine;
}

const lineNumbers = (text: string) => Array.from({ length: text.split('\n').length }, (_, i) => i + 1);

/**
 * The JSON editor's line numbers: the number of a line with a problem turns red with a mark, and
 * pointing at it says what is wrong.
 */
export function LineNumbers({ text, problems, layerRef }: Props) {
  const byLine = problemsByLine(problems);
  return (
    <div ref={layerRef} className="raw-editor__gutter" aria-hidden="true">
      {lineNumbers(text).map((line) => {
        const messages = byLine.get(line);
        return (
          <span key={line} className={messages ? 'raw-editor__line raw-editor__line--bad' : 'raw-editor__line'} {...(messages ? { title: messages.join('\n') } : {})}>
            {line}
          </span>
        );
      })}
    </div>
  );
}

/** Behind the text: a tint across each line with a problem, so the line itself is marked too. */
export function LineTints({ text, problems, layerRef }: Props) {
  const byLine = problemsByLine(problems);
  return (
    <div ref={layerRef} className="raw-editor__backdrop" aria-hidden="true">
      {lineNumbers(text).map((line) => (
        <span key={line} className={byLine.has(line) ? 'raw-editor__tint raw-editor__tint--bad' : 'raw-editor__tint'} />
      ))}
    </div>
  );
}
