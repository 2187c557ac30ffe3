import { CircleAlert, TriangleAlert } from 'lucide-react';
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
  /** "attention": nothing broke, the person's answer is awaited (a launch to allow, a sign-in) — amber, not red. */
  readonly tone?: 'error' | 'attention';
}

/**
 * An `{ok:false}` result as a person reads it: one headline, the fix first, and the rest (the
 * Host's full message, output, the error code) behind "Details". Long unbroken text (a PATH, a
 * URL) wraps inside the box instead of widening the page.
 */
export function ErrorMessage({ error, title, fix, output, onRetry, actions, tone = 'error' }: Props) {
  const { code, message, detail } = asErrorData(error);
  const headline = title ?? message;
  const showDetail = detail !== undefined && detail !== message && detail !== output?.text;
  const Icon = tone === 'attention' ? TriangleAlert : CircleAlert;
  return (
    <div className={`notice error-message ${tone === 'attention' ? 'notice--warn error-message--attention' : 'notice--error'}`} role="alert">
      <Icon className="error-message__icon" aria-hidden="true" size={18} />
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
          {/* One box that scrolls when the details are long; focusable, so a keyboard can scroll it. */}
          <div className="error-message__more" tabIndex={0}>
            {title !== undefined && title !== message ? <p className="error-message__message">{message}</p> : null}
            {showDetail ? <pre>{detail}</pre> : null}
            {output?.text ? (
              <>
                <p className="error-message__label">{output.label}</p>
                <pre>{output.text}</pre>
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
