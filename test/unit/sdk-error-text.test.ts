// The only place Harbor reads SDK error text: each reading against the exact text the SDK (2.4.0)
// and Node produce, and against look-alikes that must not match.
import { Client, SdkError, SdkErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { isDroppedResponseStream, isNetworkFailure, isNotConnectedText, isRegistrationUnsupported } from '../../main/host/servers/sdk-error-text';

const systemError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });

describe('SDK failures known only by their text', () => {
  it('a network failure: by the system code along the cause chain, or by text where the SDK flattened it', async () => {
    // A real one: Streamable HTTP to a port nobody listens on.
    const client = new Client({ name: 'harbor-test', version: '0' });
    const real = await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp'))).then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close();
    expect(isNetworkFailure(real)).toBe(true);

    const fetchFailed = new TypeError('fetch failed', { cause: systemError('ECONNREFUSED') });
    expect(isNetworkFailure(new SdkError(SdkErrorCode.EraNegotiationFailed, 'Version negotiation probe failed', undefined, { cause: fetchFailed }))).toBe(true);
    expect(isNetworkFailure(Object.assign(new Error('lookup failed'), { code: 'ENOTFOUND' }))).toBe(true);
    expect(isNetworkFailure(new Error('Failed to reconnect SSE stream: fetch failed'))).toBe(true);
    expect(isNetworkFailure(new Error('Server returned 500'))).toBe(false);
    expect(isNetworkFailure(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
  });

  it('a broken Streamable HTTP response stream', () => {
    expect(isDroppedResponseStream(new Error('SSE stream disconnected: TypeError: terminated'))).toBe(true);
    expect(isDroppedResponseStream(new Error('Failed to reconnect SSE stream: fetch failed'))).toBe(true);
    expect(isDroppedResponseStream(new TypeError('aborted', { cause: systemError('ECONNRESET') }))).toBe(true);
    expect(isDroppedResponseStream(new Error('Unexpected content type: text/html'))).toBe(false);
  });

  it("the SDK Protocol's plain \"Not connected\"", () => {
    expect(isNotConnectedText(new Error('Not connected'))).toBe(true);
    expect(isNotConnectedText(new Error('Connection closed'))).toBe(true);
    expect(isNotConnectedText('Not connected')).toBe(false);
    expect(isNotConnectedText(new Error('Tool not found'))).toBe(false);
  });

  it('an authorization server that offers no way to register', () => {
    expect(isRegistrationUnsupported(new Error('Incompatible auth server: does not support dynamic client registration'))).toBe(true);
    expect(isRegistrationUnsupported(new Error('Incompatible auth server: does not support code challenge method S256'))).toBe(false);
  });
});
