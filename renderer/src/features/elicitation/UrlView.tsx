import { visibleText } from '../../lib/visible-text';
import type { UrlReview } from './url-safety';
import './elicitation.css';

/**
 * The full URL with the part that says who runs the site highlighted, and every warning about it
 * spelled out. Text only: the URL is never a live link here (opening is a separate, explicit step).
 * A parsed http(s) URL is ASCII, but an unparsable one, a mailto: address (decoded) and the
 * Unicode form of a domain are not: every part goes through visibleText.
 */
export function UrlView({ review: raw, label = 'Address' }: { readonly review: UrlReview; readonly label?: string }) {
  const review = shownReview(raw);
  const { parts } = review;
  return (
    <div className="url-view">
      <p className="url-view__label">{label}</p>
      <p className="url-view__full" aria-label={`${label}: ${review.href}`}>
        {parts ? (
          <>
            <span className="url-view__muted">{parts.scheme}</span>
            <span className="url-view__muted">{parts.subdomain}</span>
            <mark className="url-view__domain">{parts.domain}</mark>
            <span className="url-view__muted">{parts.port}</span>
            <span className="url-view__muted">{parts.rest}</span>
          </>
        ) : (
          review.href
        )}
      </p>
      {parts && parts.scheme !== 'mailto:' ? (
        <p className="url-view__site">
          Site: <strong>{parts.domain}</strong>
          {review.unicodeDomain ? <> (written as “{review.unicodeDomain}”)</> : null}
        </p>
      ) : null}
      {review.problem ? (
        <p className="url-view__problem" role="alert">
          {review.problem}
        </p>
      ) : null}
      {review.warnings.length > 0 ? (
        <ul className="url-view__warnings" aria-label="Warnings about this address">
          {review.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function shownReview(review: UrlReview): UrlReview {
  const { parts, unicodeDomain, problem } = review;
  return {
    ...review,
    href: visibleText(review.href),
    ...(parts ? { parts: { scheme: parts.scheme, subdomain: visibleText(parts.subdomain), domain: visibleText(parts.domain), port: parts.port, rest: visibleText(parts.rest) } } : {}),
    ...(unicodeDomain !== undefined ? { unicodeDomain: visibleText(unicodeDomain) } : {}),
    ...(problem !== undefined ? { problem: visibleText(problem) } : {}),
    warnings: review.warnings.map((warning) => visibleText(warning)),
  };
}
