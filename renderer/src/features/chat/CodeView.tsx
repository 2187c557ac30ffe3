import { memo } from 'react';
import { visibleText } from '../../lib/visible-text';
import { LazyHighlightedCode } from './LazyHighlightedCode';

interface Props {
  readonly code: string;
  readonly label: string;
}

/**
 * JavaScript with syntax highlighting, numbered lines, and every invisible or bidi character
 * shown as ⟨U+XXXX⟩ — a script the model wrote is untrusted text, and reordering characters must
 * not hide what it does.
 */
export const CodeView = memo(function CodeView({ code, label }: Props) {
  return <LazyHighlightedCode code={visibleText(code, { multiline: true }).replace(/\n+$/, '')} language="javascript" className="code-view" label={label} numbered />;
});
