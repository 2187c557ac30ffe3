import { LogIn, LogOut } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HarborErrorData, ServerSummary } from '../../../../preload/contract';
import { useHarbor } from '../../app/services';
import { asErrorData } from '../../lib/load-state';
import { useResult } from '../../lib/use-result';
import { ErrorMessage } from '../../ui/ErrorMessage';

/**
 * Sign in / Sign out of a remote server (OAuth), each only when it applies: Sign out once Harbor
 * holds a sign-in; Sign in while it holds none and the server is not working without one, or when
 * the server asks for a new one. Neither for a server whose sign-in Harbor does not do (a fixed
 * Authorization header, a machine grant). While waiting, the sign-in page's address is shown too.
 */
export function SignInButtons({ server }: { readonly server: ServerSummary }) {
  const api = useHarbor();
  const { name } = server;
  const loadStatus = useCallback(() => api.auth.status({ name }), [api, name]);
  const [status, reloadStatus] = useResult(loadStatus);
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
  // A new state (signed in elsewhere, a token that stopped working) may change which button applies.
  const stateKind = server.state.kind;
  const lastKind = useRef(stateKind);
  useEffect(() => {
    if (lastKind.current === stateKind) return;
    lastKind.current = stateKind;
    reloadStatus();
  }, [stateKind, reloadStatus]);

  const signIn = async () => {
    setBusy('in');
    setError(undefined);
    setNote(undefined);
    const result = await api.auth.login({ name });
    setBusy(undefined);
    setPageUrl(undefined);
    if (!result.ok) setError(asErrorData(result.error));
    else setNote('Signed in.');
    reloadStatus();
  };
  const signOut = async () => {
    setBusy('out');
    setError(undefined);
    const result = await api.auth.logout({ name });
    setBusy(undefined);
    if (!result.ok) setError(asErrorData(result.error));
    else setNote(result.value.removed ? "Signed out: Harbor forgot this server's tokens." : 'There was no sign-in to forget.');
    reloadStatus();
  };

  if (status.status !== 'ready' || !status.value.usesSignIn) return null;
  const { signedIn } = status.value;
  const asked = server.state.kind === 'error' && (server.state.code === 'AUTH_REQUIRED' || server.state.code === 'AUTH_FAILED');
  // An expired or refused sign-in (ServerSummary.signIn) offers a new one too.
  const lapsed = server.signIn?.state === 'expired' || server.signIn?.state === 'refused';
  const offerIn = busy === 'in' || asked || lapsed || (!signedIn && server.state.kind !== 'ready');
  const offerOut = signedIn || busy === 'out';
  // Only http(s) addresses become links; anything else is shown as text.
  const safe = pageUrl && /^https?:\/\//i.test(pageUrl) ? pageUrl : undefined;
  return (
    <>
      {offerIn ? (
        <button type="button" className="button button--with-icon" aria-label={`Sign in to ${name}`} disabled={busy !== undefined} onClick={() => void signIn()}>
          <LogIn aria-hidden="true" size={15} />
          {busy === 'in' ? 'Waiting for sign-in…' : signedIn ? 'Sign in again' : 'Sign in'}
        </button>
      ) : null}
      {offerOut ? (
        <button type="button" className="button button--with-icon" aria-label={`Sign out of ${name}`} disabled={busy !== undefined} onClick={() => void signOut()}>
          <LogOut aria-hidden="true" size={15} />
          {busy === 'out' ? 'Signing out…' : 'Sign out'}
        </button>
      ) : null}
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
        <p className="field__hint sign-in__note" role="status">
          {note}
        </p>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
    </>
  );
}
