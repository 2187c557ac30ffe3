import { useState } from 'react';
import { visibleText } from '../../lib/visible-text';

/** Above this many lines (or characters), the box says there is more and can show all of it. */
const SHORT_LINES = 10;
const SHORT_CHARS = 800;

/**
 * A description as the person reads it in the dialog: hidden characters made visible, and every
 * run of two or more blank lines collapsed into one line that says how many there were — padding
 * cannot push the rest of the text below the fold.
 */
export function collapseBlankLines(text: string): string {
  const out: string[] = [];
  let blank = 0;
  const flush = () => {
    if (blank === 1) out.push('');
    else if (blank > 1) out.push(`⟨${blank} blank lines⟩`);
    blank = 0;
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*$/.test(line)) {
      blank++;
      continue;
    }
    flush();
    out.push(line);
  }
  flush();
  return out.join('\n');
}

/** The tool's full description in a scrolling box; a long one says so and can be shown whole. */
export function ToolDescription({ description }: { readonly description: string }) {
  const [full, setFull] = useState(false);
  if (!description) return <p className="plain-text consent__description">(The server gave no description.)</p>;
  const text = collapseBlankLines(visibleText(description, { multiline: true }));
  const lines = text.split('\n').length;
  const long = lines > SHORT_LINES || text.length > SHORT_CHARS;
  return (
    <>
      <p className={`plain-text consent__description${full ? ' consent__description--full' : ''}`}>{text}</p>
      {long && !full ? (
        <p className="consent__note">
          The description goes on below.{' '}
          <button type="button" className="button button--small" onClick={() => setFull(true)}>
            Show the whole description ({lines} lines)
          </button>
        </p>
      ) : null}
    </>
  );
}
