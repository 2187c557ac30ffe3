import { Check, Copy } from 'lucide-react';
import { memo } from 'react';
import { visibleText } from '../../lib/visible-text';
import { GRAMMARS } from './code-grammars';
import { LazyHighlightedCode } from './LazyHighlightedCode';
import { useCopy } from '../../ui/use-copy';
import './code-tokens.css';

/** Names models write after ``` mapped to the grammar prism-react-renderer bundles. */
const ALIASES: Readonly<Record<string, string>> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  py: 'python',
  yml: 'yaml',
  html: 'markup',
  xml: 'markup',
  svg: 'markup',
  md: 'markdown',
  rs: 'rust',
  kt: 'kotlin',
  golang: 'go',
  'c++': 'cpp',
  objc: 'objectivec',
};

/** What the label says: the language as written, or "text". */
function label(language: string): string {
  return language || 'text';
}

function grammar(language: string): string | undefined {
  const name = ALIASES[language] ?? language;
  return name && GRAMMARS.has(name) ? name : undefined;
}

interface Props {
  readonly code: string;
  /** The fence's language ("ts", "python"…), lower case; "" when none. */
  readonly language: string;
}

/**
 * A fenced code block of model text: highlighted when Harbor knows the language (tokens become
 * React elements, never HTML), labelled with it, with a Copy button. Invisible and bidi
 * characters are shown as ⟨U+XXXX⟩: reordered characters must not hide what code does.
 */
export const CodeBlock = memo(function CodeBlock({ code, language }: Props) {
  const text = code.replace(/\n$/, '');
  const [status, copy] = useCopy(text);
  const known = grammar(language);
  const shown = visibleText(text, { multiline: true });
  return (
    <figure className="code-block">
      <figcaption className="code-block__bar">
        <span className="code-block__lang">{label(language)}</span>
        <span className="code-block__status" aria-live="polite">
          {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : ''}
        </span>
        <button type="button" className="code-block__copy" title="Copy code" onClick={copy}>
          {status === 'copied' ? <Check aria-hidden="true" size={14} /> : <Copy aria-hidden="true" size={14} />}
          Copy<span className="visually-hidden"> code</span>
        </button>
      </figcaption>
      {known ? (
        <LazyHighlightedCode code={shown} language={known} className="code-view code-block__pre" focusable />
      ) : (
        <pre className="code-view code-block__pre" tabIndex={0}>
          <code>{shown}</code>
        </pre>
      )}
    </figure>
  );
});
