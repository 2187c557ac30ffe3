import { Highlight, type PrismTheme } from 'prism-react-renderer';
import { memo } from 'react';
import { visibleText } from '../../lib/visible-text';

/** No inline colours: tokens get Prism's class names and code-card.css colours them for both themes. */
const CLASSES_ONLY: PrismTheme = { plain: {}, styles: [] };

interface Props {
  readonly code: string;
  readonly label: string;
}

/**
 * JavaScript with syntax highlighting (prism-react-renderer: tokens become React elements, never
 * HTML), numbered lines, and every invisible or bidi character shown as ⟨U+XXXX⟩ — a script the
 * model wrote is untrusted text, and reordering characters must not hide what it does.
 */
export const CodeView = memo(function CodeView({ code, label }: Props) {
  return (
    <Highlight code={visibleText(code, { multiline: true }).replace(/\n+$/, '')} language="javascript" theme={CLASSES_ONLY}>
      {({ tokens, getLineProps, getTokenProps }) => (
        <pre className="code-view" aria-label={label}>
          <code>
            {tokens.map((line, i) => {
              const { key: _lineKey, ...lineProps } = getLineProps({ line });
              return (
                <span key={i} {...lineProps} className={`${lineProps.className} code-view__line`}>
                  <span className="code-view__number" aria-hidden="true">
                    {i + 1}
                  </span>
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
});
