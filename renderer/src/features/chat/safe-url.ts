/** The schemes a link in model or server text may have: the web and e-mail. Nothing that runs code or opens another program. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * A link target from untrusted text, or '' when it must not be a link: only absolute http(s) and
 * mailto URLs pass (javascript:, data:, file:, custom schemes and relative links, which would
 * navigate the app itself, do not). Returned normalized, so what is shown is what opens.
 */
export function safeHref(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return '';
  }
  return LINK_SCHEMES.has(url.protocol) ? url.href : '';
}
