import { TriangleExclamationPoint } from 'lucide-react';
import type { HarborErrorData } from '../../../../preload/contract';
import { hrefFor } from '../../app/routes';
import { asErrorData } from '../../lib/load-state';

/** Where the model is set up: Settings, its model section. */
export const MODEL_SETTINGS_HREF = hrefFor('settings', 'model');

/** Failures whose fix is in the model's settings (provider, key, address). */
const MODEL_CODES = new Set(['MODEL_ERROR', 'MODEL_NOT_CONFIGURED', 'SECRET_MISSING', 'KEYCHAIN_UNAVAILABLE']);

interface Props {
  readonly error: HarborErrorData;
  /** What failed, above the message ("The model failed"). */
  readonly title?: string;
  readonly onRetry?: (() => void) | undefined;
  readonly retryDisabled?: boolean;
  readonly onDismiss?: (() => void) | undefined;
}

/**
 * A failed turn or send, said so the person can act: what happened, then Retry and — when the
 * fix is in the model's settings — Open settings; the error code under Details, for reports.
 */
export function ProblemCard({ error, title, onRetry, retryDisabled, onDismiss }: Props) {
  const { code, message, detail } = asErrorData(error);
  // The Host's message often opens with the same words ("The model failed: …"): said once.
  const heading = title && !message.toLowerCase().startsWith(title.toLowerCase()) ? title : undefined;
  return (
    <section className="problem-card" role="alert" aria-label={title ?? 'Problem'}>
      <TriangleExclamationPoint className="problem-card__icon" aria-hidden="true" size={18} />
      <div className="problem-card__body">
        {heading ? <p className="problem-card__title">{heading}</p> : null}
        <p className="problem-card__message">{message}</p>
        {/* The code is for reports: under Details, never beside the message a person reads. */}
        <details className="problem-card__details">
          <summary>Details</summary>
          {detail ? <pre>{detail}</pre> : null}
          <p className="problem-card__code">Error code: {code}</p>
        </details>
        <div className="problem-card__actions">
          {onRetry ? (
            <button type="button" className="button button--small button--primary" disabled={retryDisabled} onClick={onRetry}>
              Retry
            </button>
          ) : null}
          {MODEL_CODES.has(code) ? (
            <a className="button button--small problem-card__link" href={MODEL_SETTINGS_HREF}>
              Open settings
            </a>
          ) : null}
          {onDismiss ? (
            <button type="button" className="button button--small" onClick={onDismiss}>
              Dismiss
            </button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
