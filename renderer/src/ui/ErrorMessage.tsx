import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import type { HarborErrorData } from '../../../preload/contract';
import { asErrorData } from '../lib/load-state';
import './error-message.css';

interface Props {
  readonly error: HarborErrorData;
  /**
   * A short headline in the person's words ("notes could not start"). Given, the Host's own
   * message moves into Details, so nothing is said twice.
   */
  readonly title?: string;
  /** What to do about it, shown right under the headline: the fix comes first. */
  readonly fix?: ReactNode;
  /** More text for Details, e.g. a server's last stderr lines. */
  readonly output?: { readonly label: string; readonly text: string };
  readonly onRetry?: () => void;
  /** Buttons that fix it (Allow launch, Edit, Sign in), beside "Try again". */
  readonly actions?: ReactNode;
}

/**
 * An `{ok:false}` result as a person reads it: one headline, the fix first, and the rest (the
 * Host's full message, output, the error code) behind "Details". Long unbroken text (a PATH, a
 * URL) wraps inside the box instead of widening the page.
 */
export function ErrorMessage({ error, title, fix, output, onRetry, actions }: Props) {
  const { code, message, detail } = asErrorData(error);
  const headline = title ?? message;
  const showDetail = detail !== undefined && detail !== message && detail !== output?.text;
  return (
    <div className="notice notice--error error-message" role="alert">
      <CircleAlert className="error-message__icon" aria-hidden="true" size={18} />
      <div className="error-message__body">
        <p className="error-message__title">{headline}</p>
        {fix ? <div className="error-message__fix">{fix}</div> : null}
        {onRetry || actions ? (
          <div className="error-message__actions">
            {actions}
            {onRetry ? (
              <button type="button" className="button button--small" onClick={onRetry}>
                Try again
              </button>
            ) : null}
          </div>
        ) : null}
        <details className="error-message__details">
          <summary>Details</summary>
          <div className="error-message__more">
            {title !== undefined && title !== message ? <p className="error-message__message">{message}</p> : null}
            {/* Focusable: a long text scrolls inside its box, by keyboard too. */}
            {showDetail ? <pre tabIndex={0}>{detail}</pre> : null}
            {output?.text ? (
              <>
                <p className="error-message__label">{output.label}</p>
                <pre tabIndex={0}>{output.text}</pre>
              </>
            ) : null}
            <p className="error-message__code">
              Error code <code>{code}</code>
            </p>
          </div>
        </details>
      </div>
    </div>
  );
}
