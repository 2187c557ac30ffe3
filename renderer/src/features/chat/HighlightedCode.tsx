import { Highlight, type PrismTheme } from 'prism-react-renderer';
import './code-tokens.css';

// Prism and its grammars (~40 ms of a fresh page's main thread to evaluate at load 2): this module
// is a chunk of its own, loaded by LazyHighlightedCode when the first code shows.

/** No inline colours: tokens get Prism's class names and code-tokens.css colours them for both themes. */
const CLASSES_ONLY: PrismTheme = { plain: {}, styles: [] };

export interface HighlightedProps {
  /** Already made visible (visibleText): shown as it is. */
  readonly code: string;
  /** A grammar prism-react-renderer bundles. */
  readonly language: string;
  readonly className: string;
  readonly label?: string | undefined;
  /** Line numbers in the margin (not copied, not read out). */
  readonly numbered?: boolean;
  /** Focusable, so a block that scrolls sideways can be scrolled from the keyboard. */
  readonly focusable?: boolean;
}

/** Highlighted code: Prism's tokens as React elements (never HTML), coloured by code-tokens.css. */
export function HighlightedCode({ code, language, className, label, numbered = false, focusable = false }: HighlightedProps) {
  return (
    <Highlight code={code} language={language} theme={CLASSES_ONLY}>
      {({ tokens, getLineProps, getTokenProps }) => (
        <pre className={className} aria-label={label} {...(focusable ? { tabIndex: 0 } : {})}>
          <code>
            {tokens.map((line, i) => {
              const { key: _lineKey, ...lineProps } = getLineProps({ line });
              return (
                <span key={i} {...lineProps} {...(numbered ? { className: `${lineProps.className} code-view__line` } : {})}>
                  {numbered ? (
                    <span className="code-view__number" aria-hidden="true">
                      {i + 1}
                    </span>
                  ) : null}
                  {line.map((token, j) => {
                    const { key: _tokenKey, ...tokenProps } = getTokenProps({ token });
                    return <span key={j} {...tokenProps} />;
                  })}
                  {'\n'}
                </span>
              );
            })}
          </code>
        </pre>
      )}
    </Highlight>
  );
}
