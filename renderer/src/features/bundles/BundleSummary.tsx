import type { BundleReviewData } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

const SIGNATURE: Record<BundleReviewData['signature']['status'], string> = {
  signed: 'Signed',
  'self-signed': 'Self-signed',
  unsigned: 'Unsigned',
  unverified: 'Signature does not check out',
};

function signatureNote(review: BundleReviewData): string {
  const s = review.signature;
  if (s.status === 'signed') return `By ${s.publisher ?? 'an unnamed publisher'}, certified by ${s.issuer ?? 'an unnamed issuer'}.`;
  if (s.status === 'self-signed') return `By ${s.publisher ?? 'an unnamed publisher'}, who vouches for itself: nobody else does.`;
  if (s.status === 'unverified') return 'The file changed after it was signed, or its certificate is not trusted here. Install it only if you trust where it came from.';
  return 'Nobody vouches for this file. Install it only if you trust where it came from.';
}

/** Who made the bundle, what it declares (tools, prompts), and its signature — the bundle's own words, escaped. */
export function BundleSummary({ review }: { readonly review: BundleReviewData }) {
  const list = (items: ReadonlyArray<{ name: string; description?: string }>, generated: boolean, noun: string) => (
    <>
      {items.length > 0 ? (
        <ul className="install-plan__list">
          {items.map((item) => (
            <li key={item.name}>
              <code>{visibleText(item.name)}</code>
              {item.description ? ` — ${visibleText(item.description)}` : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None declared.</p>
      )}
      {generated ? <p className="muted">It may offer more {noun} once it runs.</p> : null}
    </>
  );
  return (
    <div className="bundle-summary">
      <p className="plain-text">{visibleText(review.description, { multiline: true })}</p>
      <dl className="facts">
        <dt>Version</dt>
        <dd>{visibleText(review.version)}</dd>
        <dt>Author</dt>
        <dd>
          {visibleText(review.author.name)}
          {review.author.email ? ` <${visibleText(review.author.email)}>` : ''}
        </dd>
        {review.repository ? (
          <>
            <dt>Source</dt>
            <dd>
              <code>{visibleText(review.repository)}</code>
            </dd>
          </>
        ) : null}
        <dt>Signature</dt>
        <dd>
          <span className={`badge ${review.signature.status === 'signed' ? 'badge--ready' : 'badge--starting'}`}>{SIGNATURE[review.signature.status]}</span> {signatureNote(review)}
        </dd>
        <dt>Contents</dt>
        <dd>
          {review.files} files, {Math.max(1, Math.round(review.unpackedBytes / 1024))} KB ({visibleText(review.serverType)} server)
        </dd>
      </dl>
      <h3 className="consent__subtitle">Tools it declares</h3>
      {list(review.tools, review.toolsGenerated, 'tools')}
      <h3 className="consent__subtitle">Prompts it declares</h3>
      {list(review.prompts, review.promptsGenerated, 'prompts')}
    </div>
  );
}
