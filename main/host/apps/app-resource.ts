/**
 * Turns a server's `resources/read` answer for a `ui://` resource into the app Harbor renders, or a
 * clear error saying what is wrong with it and what the server must send instead. The resource's
 * `_meta.ui` is read from the content item first and from the resource listing when the item has
 * none (servers put it in either; a host reading only one shows apps without their domains).
 */
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/client';
import { HarborError } from '../errors';
import { isAppMimeType, MCP_APP_MIME_TYPE, resourceUiMeta, UI_SCHEME, type ResourceUiMeta } from './ui-meta';

/** Larger than any real app document; a server sending more is broken or hostile. */
export const MAX_APP_HTML_BYTES = 8 * 1024 * 1024;

export interface AppResource {
  readonly uri: string;
  readonly html: string;
  /** The rendering needs (CSP domains, permissions, border) and where they were read from. */
  readonly meta: ResourceUiMeta | undefined;
  readonly metaFrom: 'content' | 'listing' | 'none';
}

function decodeBase64Utf8(blob: string): string | undefined {
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(blob)) return undefined;
  return Buffer.from(blob, 'base64').toString('utf8');
}

/** Checks the URI before anything is read: only `ui://` resources are apps. */
export function assertAppUri(uri: string): void {
  if (!uri.startsWith(UI_SCHEME) || uri.length === UI_SCHEME.length) {
    throw new HarborError('BAD_REQUEST', `"${uri.slice(0, 200)}" is not an app resource: app resources have ui:// addresses.`);
  }
}

/**
 * The app in `read` (the answer for `uri`), with `listed` as the listing entry when the server
 * lists it. Throws PROTOCOL_ERROR naming the problem when the answer is not one HTML document of
 * the app MIME type.
 */
export function appResourceFrom(server: string, uri: string, read: ReadResourceResult, listed: Resource | undefined): AppResource {
  const contents = Array.isArray(read.contents) ? read.contents : [];
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) {
    throw new HarborError('PROTOCOL_ERROR', `${server} answered the read of ${uri} without that resource in it, so there is no app to show. The server must return the resource it names in the tool's _meta.ui.resourceUri.`);
  }
  if (!isAppMimeType(item.mimeType)) {
    throw new HarborError(
      'PROTOCOL_ERROR',
      `${server} sent ${uri} as "${String(item.mimeType ?? 'no MIME type').slice(0, 80)}", not "${MCP_APP_MIME_TYPE}": Harbor renders only MCP App documents. The server must send the app with that MIME type.`,
    );
  }
  let html: string | undefined;
  if ('text' in item && typeof item.text === 'string') html = item.text;
  else if ('blob' in item && typeof item.blob === 'string') html = decodeBase64Utf8(item.blob);
  if (html === undefined) throw new HarborError('PROTOCOL_ERROR', `${server} sent ${uri} without readable content (neither text nor base64 blob).`);
  if (Buffer.byteLength(html, 'utf8') > MAX_APP_HTML_BYTES) {
    throw new HarborError('PROTOCOL_ERROR', `${server} sent an app of more than ${MAX_APP_HTML_BYTES / 1024 / 1024} MB (${uri}); Harbor does not render it.`);
  }
  if (html.trim() === '') throw new HarborError('PROTOCOL_ERROR', `${server} sent ${uri} empty: there is no app to show.`);
  const fromContent = resourceUiMeta(item);
  const fromListing = listed ? resourceUiMeta(listed) : undefined;
  return {
    uri,
    html,
    meta: fromContent ?? fromListing,
    metaFrom: fromContent ? 'content' : fromListing ? 'listing' : 'none',
  };
}
