import { useEffect, useState } from 'react';
import type { HarborErrorData } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { ErrorMessage } from '../../ui/ErrorMessage';

/** Sign in / Sign out of a remote server (OAuth). While waiting, the sign-in page's address is shown too. */
export function SignInButtons({ name }: { readonly name: string }) {
  const api = useHarbor();
  const [busy, setBusy] = useState<'in' | 'out' | undefined>();
  const [pageUrl, setPageUrl] = useState<string | undefined>();
  const [note, setNote] = useState<string | undefined>();
  const [error, setError] = useState<HarborErrorData | undefined>();
  useEffect(
    () =>
      api.on.auth.open((event) => {
        if (event.server === name) setPageUrl(event.url);
      }),
    [api, name],
  );

  const signIn = async () => {
    setBusy('in');
    setError(undefined);
    setNote(undefined);
    const result = await api.auth.login({ name });
    setBusy(undefined);
    setPageUrl(undefined);
    if (!result.ok) setError(asErrorData(result.error));
    else setNote('Signed in.');
  };
  const signOut = async () => {
    setBusy('out');
    setError(undefined);
    const result = await api.auth.logout({ name });
    setBusy(undefined);
    if (!result.ok) setError(asErrorData(result.error));
    else setNote(result.value.removed ? 'Signed out: Harbor forgot this server\'s tokens.' : 'There was no sign-in to forget.');
  };

  // Only http(s) addresses become links; anything else is shown as text.
  const safe = pageUrl && /^https?:\/\//i.test(pageUrl) ? pageUrl : undefined;
  return (
    <>
      <button type="button" className="button" aria-label={`Sign in to ${name}`} disabled={busy !== undefined} onClick={() => void signIn()}>
        {busy === 'in' ? 'Waiting for sign-in…' : 'Sign in'}
      </button>
      <button type="button" className="button" aria-label={`Sign out of ${name}`} disabled={busy !== undefined} onClick={() => void signOut()}>
        {busy === 'out' ? 'Signing out…' : 'Sign out'}
      </button>
      {busy === 'in' && pageUrl ? (
        <p className="field__hint sign-in__url">
          Finish signing in in your browser. If it did not open:{' '}
          {safe ? (
            <a href={safe} target="_blank" rel="noopener noreferrer">
              {safe}
            </a>
          ) : (
            <code>{pageUrl}</code>
          )}
        </p>
      ) : null}
      {note ? (
        <p className="field__hint" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
