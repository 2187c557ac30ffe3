/**
 * The few failures that @modelcontextprotocol/client 2.4.0 and Node's fetch report only as
 * message text: a plain `Error` with no SdkError code, no HTTP status and no cause that says what
 * happened. Harbor reads such text here and nowhere else, so every reading is named, documented
 * with the exact text it expects, tested (test/unit/sdk-error-text.test.ts) and easy to drop once
 * the SDK gives a typed signal. Everything else decides on types and codes.
 */

/** Every message along an error's `cause` chain (bounded: a cycle must not hang). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; ) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** System error codes (Node, undici) that mean the network path to a server failed. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * The same failures as text, for where the code was lost: the SDK flattens causes into messages
 * ("Failed to reconnect SSE stream: fetch failed", "Version negotiation probe failed: fetch
 * failed"), and undici's own `TypeError("fetch failed")` carries the code only on its cause.
 */
const NETWORK_TEXT = /ECONNREFUSED|ECONNRESET|fetch failed|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|network/i;

/** The server could not be reached (refused, reset, unknown host, timed out on the way). */
export function isNetworkFailure(error: unknown): boolean {
  const chain = causeChain(error);
  if (chain.some((e) => typeof (e as { code?: unknown }).code === 'string' && NETWORK_CODES.has((e as { code: string }).code))) return true;
  return chain.some((e) => NETWORK_TEXT.test(messageOf(e)));
}

/**
 * The SDK's Protocol rejects a request on a client whose transport is gone with a plain
 * `new Error("Not connected")` (not its SdkError NOT_CONNECTED, which callers get elsewhere).
 */
export function isNotConnectedText(error: unknown): boolean {
  return error instanceof Error && /not connected|connection closed/i.test(error.message);
}

/**
 * What the Streamable HTTP transport passes to `onerror` when a response stream breaks under a
 * pending request: `new Error("SSE stream disconnected: TypeError: terminated")`, "Failed to
 * reconnect SSE stream: …", or the socket error itself. No code or type tells these apart from
 * other transport noise, so the text decides; a typed network cause decides first.
 */
export function isDroppedResponseStream(error: unknown): boolean {
  if (causeChain(error).some((e) => (e as { code?: unknown }).code === 'ECONNRESET' || (e as { code?: unknown }).code === 'UND_ERR_SOCKET')) return true;
  return /disconnected|terminated|stream|socket|ECONNRESET/i.test(messageOf(error));
}

/**
 * The SDK's OAuth flow, facing an authorization server with neither a client metadata document
 * nor a registration endpoint, throws `new Error("Incompatible auth server: does not support
 * dynamic client registration")` (no OAuthError code, no class of its own).
 */
export function isRegistrationUnsupported(error: unknown): boolean {
  return error instanceof Error && /does not support dynamic client registration/.test(error.message);
}
