/**
 * The checks that keep browser mode's server to the one page it serves. This server can start
 * processes on the user's machine, so every request must prove three things:
 *  - it was addressed to 127.0.0.1/localhost on our port (Host header: DNS-rebinding defence —
 *    a hostile site that rebinds its own name to 127.0.0.1 still sends its own name as Host);
 *  - a WebSocket comes from our own page (Origin: a hostile page in the same browser sends its own);
 *  - it knows the per-launch token that only the printed URL carries (a local process or page
 *    that guesses the port still cannot talk to the Host).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import { contentSecurityPolicy } from '../csp';

/**
 * Headers on every HTTP response, static file or refusal alike. `frameSources`: the one origin the
 * page may frame, browser mode's MCP Apps sandbox (main/web/app-sandbox-server.ts); none without it.
 */
export function securityHeaders(frameSources: readonly string[] = []): Readonly<Record<string, string>> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(frameSources),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

export const SECURITY_HEADERS = securityHeaders();

/** A fresh secret per launch: 256 bits, URL-safe so it travels in the fragment and the query. */
export function createToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison. Both sides are hashed first so that the comparison does not leak the
 * token's length either (timingSafeEqual needs equal-length buffers).
 */
export function tokenMatches(expected: string, provided: string | null | undefined): boolean {
  if (typeof provided !== 'string' || provided.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(provided).digest();
  return timingSafeEqual(a, b);
}

/** The Host header values we answer to: exactly our loopback address or localhost, on our port. */
export function allowedHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (typeof hostHeader !== 'string') return false;
  return allowedHosts(port).includes(hostHeader.toLowerCase());
}

/**
 * A WebSocket must come from our own page: its Origin is exactly `http://` + the Host it connected
 * to (itself one of the allowed hosts). A missing Origin is refused too — browsers always send one
 * on a WebSocket handshake, so only a non-browser client omits it, and those have no business here.
 */
export function isAllowedOrigin(origin: string | undefined, hostHeader: string | undefined, port: number): boolean {
  if (typeof origin !== 'string' || !isAllowedHost(hostHeader, port)) return false;
  return origin.toLowerCase() === `http://${hostHeader!.toLowerCase()}`;
}
