import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';

/** A page a server asks the person to open (URL-mode elicitation). */
export interface PageToOpen {
  readonly url: string;
  readonly message: string;
  readonly elicitationId: string;
}

/** The pages of an "elicitation required" error (-32042), or undefined when `error` is not one. */
export function pagesToOpen(error: unknown): PageToOpen[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== (ProtocolErrorCode.UrlElicitationRequired as number)) return undefined;
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry: unknown) => {
    const e = entry as { url?: unknown; message?: unknown; elicitationId?: unknown } | null;
    if (!e || typeof e.url !== 'string') return [];
    return [{ url: e.url, message: typeof e.message === 'string' ? e.message : '', elicitationId: typeof e.elicitationId === 'string' ? e.elicitationId : '' }];
  });
}

/**
 * A server answered "open this page first, then try again" (MCP error -32042): the error names
 * every page, in the message a person reads and as `pages` for the app's URL dialog and the CLI's
 * `--open`.
 */
export function urlElicitationFailure(error: unknown, server: string, action: string): HarborError | undefined {
  const pages = pagesToOpen(error);
  if (!pages) return undefined;
  const listed = pages.map((p) => `  ${p.url}${p.message ? ` (${p.message})` : ''}`);
  const message =
    pages.length > 0
      ? `"${server}" needs you to open ${pages.length === 1 ? 'a page' : `${pages.length} pages`} before it can go on ${action}:\n${listed.join('\n')}\nOpen ${pages.length === 1 ? 'it' : 'them'} in your browser, finish there, then try again.`
      : `"${server}" needs you to open a page before it can go on ${action}, but named none (${(error as Error).message}).`;
  return new HarborError('URL_ELICITATION_REQUIRED', message, undefined, { cause: error, pages });
}
