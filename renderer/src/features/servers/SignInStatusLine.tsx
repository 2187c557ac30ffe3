import type { ServerSummary } from '../../../../preload/contract';
import { visibleText } from '../../lib/visible-text';

function at(ms: number): string {
  const date = new Date(ms);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : date.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A remote server's sign-in in one line (ServerSummary.signIn): signed in as whom and until when,
 * expired, or refused in the authorization server's own words. The Sign in button beside it
 * (SignInButtons) is offered again for the last two.
 */
export function SignInStatusLine({ server }: { readonly server: ServerSummary }) {
  const signIn = server.signIn;
  if (!signIn || signIn.state === 'none') return null;
  if (signIn.state === 'signed-in') {
    return (
      <p className="field__hint sign-in__status" data-sign-in="signed-in">
        Signed in{signIn.subject ? ` as ${visibleText(signIn.subject)}` : ''}
        {signIn.expiresAt !== undefined ? ` · the token expires ${at(signIn.expiresAt)}` : ''}
      </p>
    );
  }
  return (
    <p className="notice notice--warn sign-in__status" role="status" data-sign-in={signIn.state}>
      <strong>{signIn.state === 'expired' ? 'Sign-in expired' : 'Sign-in refused'}:</strong> {visibleText(signIn.message ?? '')}
    </p>
  );
}
