import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthError,
  RegistrationRejectedError,
  SdkHttpError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { isRegistrationUnsupported } from '../servers/sdk-error-text';
import type { TokenGrant } from './grants';

/**
 * What an authorization failure means for the person, as AUTH_REQUIRED (signing in can fix it) or
 * AUTH_FAILED (it cannot, as things are), or undefined when the error is not about authorization.
 * Text an authorization server sent is never quoted beyond a bare OAuth error code: in a mix-up
 * attack it is the attacker's (RFC 9207).
 */
export function toAuthError(error: unknown, server: string, signInRequired: () => HarborError): HarborError | undefined {
  const where = `"${server}"`;
  const relogin = `Run "harbor login ${server}" (in the app: Sign in).`;
  if (error instanceof HarborError) return error.code === 'AUTH_REQUIRED' || error.code === 'AUTH_FAILED' ? error : undefined;
  if (error instanceof UnauthorizedError) return signInRequired();
  if (error instanceof InsufficientScopeError) {
    return new HarborError('AUTH_REQUIRED', `${where} needs permissions Harbor was not granted. Sign in again to grant them: ${relogin}`, undefined, { cause: error });
  }
  if (error instanceof IssuerMismatchError) {
    return new HarborError(
      'AUTH_FAILED',
      `The sign-in response for ${where} did not come from its authorization server (issuer check failed), so Harbor refused it. Try again; if it keeps happening, something is interfering with the sign-in.`,
      undefined,
      { cause: error },
    );
  }
  if (error instanceof AuthorizationServerMismatchError) {
    return new HarborError('AUTH_REQUIRED', `${where} changed authorization servers during sign-in. ${relogin}`, undefined, { cause: error });
  }
  if (error instanceof RegistrationRejectedError) {
    return new HarborError(
      'AUTH_FAILED',
      `The authorization server of ${where} refused to register Harbor as a client (HTTP ${error.status}${oauthCode(error.body)}). Register a client there yourself and add "oauth": {"clientId": "…"} to the server in the registry.`,
      undefined,
      { cause: error },
    );
  }
  if (error instanceof InsecureTokenEndpointError) {
    return new HarborError('AUTH_FAILED', `The authorization server of ${where} has a token endpoint that is not https; Harbor will not send credentials to it.`, undefined, { cause: error });
  }
  if (error instanceof OAuthError) {
    const code = /^[a-z_]{1,64}$/.test(error.code) ? error.code : 'error';
    if (code === 'access_denied') return new HarborError('AUTH_REQUIRED', `Sign-in to ${where} was not granted (access_denied). ${relogin}`, undefined, { cause: error });
    return new HarborError('AUTH_FAILED', `The authorization server of ${where} refused the sign-in (${code}). ${relogin}`, undefined, { cause: error });
  }
  if (error instanceof SdkHttpError) {
    if (error.code === 'CLIENT_HTTP_AUTHENTICATION') return new HarborError('AUTH_REQUIRED', `${where} still answers 401 after signing in. ${relogin}`, undefined, { cause: error });
    if (error.code === 'CLIENT_HTTP_FORBIDDEN') {
      return new HarborError('AUTH_FAILED', `${where} still refuses access after signing in: it asks for more permissions than the authorization server granted.`, undefined, { cause: error });
    }
    return undefined;
  }
  if (isRegistrationUnsupported(error)) {
    return new HarborError(
      'AUTH_FAILED',
      `The authorization server of ${where} offers no way for Harbor to register (no client metadata document support, no registration endpoint). Register a client there and add "oauth": {"clientId": "…"} to the server in the registry.`,
      undefined,
      { cause: error },
    );
  }
  return undefined;
}

/**
 * A machine grant's failure: there is no one to sign in, so everything about authorization is
 * AUTH_FAILED with what to fix in the configuration (never "harbor login").
 */
export function machineGrantFailure(error: unknown, server: string, grant: TokenGrant): HarborError | undefined {
  const where = `"${server}"`;
  if (error instanceof HarborError) return error.code === 'AUTH_REQUIRED' || error.code === 'AUTH_FAILED' ? error : undefined;
  if (error instanceof OAuthError) return machineGrantRefused(server, grant, /^[a-z_]{1,64}$/.test(error.code) ? error.code : undefined, error);
  const refusedToken = (detail: string) =>
    new HarborError('AUTH_FAILED', `${where} ${detail} with the token Harbor got for its ${grant.presented}. ${grant.check}, and "oauth.scope".`, undefined, { cause: error });
  if (error instanceof InsufficientScopeError) return refusedToken('needs more permissions (scopes) than come');
  if (error instanceof SdkHttpError && error.code === 'CLIENT_HTTP_AUTHENTICATION') return refusedToken('still answers 401');
  if (error instanceof SdkHttpError && error.code === 'CLIENT_HTTP_FORBIDDEN') return refusedToken('refuses access (403)');
  if (error instanceof UnauthorizedError) return refusedToken('still asks for authorization');
  const failure = toAuthError(error, server, () => refusedToken('still asks for authorization'));
  return failure && failure.code === 'AUTH_REQUIRED' ? new HarborError('AUTH_FAILED', failure.message, undefined, { cause: error }) : failure;
}

/** The authorization server refused a machine grant's token request (with its OAuth error code, when it sent one). */
export function machineGrantRefused(server: string, grant: TokenGrant, code: string | undefined, cause?: unknown): HarborError {
  return new HarborError(
    'AUTH_FAILED',
    `The authorization server of "${server}" refused Harbor's ${grant.presented}${code ? ` (${code})` : ''}. ${grant.check}; then connect again.`,
    undefined,
    cause === undefined ? undefined : { cause },
  );
}

function oauthCode(body: string): string {
  try {
    const code = (JSON.parse(body) as { error?: unknown }).error;
    return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? `, ${code}` : '';
  } catch {
    return '';
  }
}
