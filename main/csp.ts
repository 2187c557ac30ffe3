/**
 * The app's Content Security Policy, one definition for both front doors: the Electron window sets
 * it as a response header (main/window.ts) and browser mode sends it with every response
 * (main/web/security.ts). renderer/index.html carries the same policy in a <meta> — minus
 * frame-ancestors, which browsers honour only as a header (a unit test keeps the two in step).
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // 'self' admits ws://same-host: the browser-mode bridge.
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
] as const;

/** The header form. */
export const CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'none'"].join('; ');

/** The <meta> form in renderer/index.html. */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ');
