import { describe, expect, it } from 'vitest';
import { HarborError } from '../../main/host/errors';
import { assertBrowserUrl, browserUrlProblem, isLoopbackHost } from '../../main/host/auth/url-policy';

describe('the URL policy in front of every sign-in page', () => {
  it('allows https anywhere and http only to this machine', () => {
    for (const ok of [
      'https://auth.example.com/authorize?x=1',
      'https://127.0.0.1:8443/authorize',
      'http://127.0.0.1:5555/authorize',
      'http://127.9.8.7/authorize',
      'http://localhost:3000/authorize',
      'http://LOCALHOST/authorize',
      'http://[::1]:9000/authorize',
    ]) {
      expect(browserUrlProblem(ok), ok).toBeUndefined();
    }
  });

  it('refuses javascript:, data:, file:, vbscript:, custom schemes, remote http, and embedded credentials', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      'ms-settings:display',
      'ftp://example.com/x',
      'http://example.com/authorize',
      'http://127.0.0.1.evil.example/authorize',
      'http://localhost.evil.example/authorize',
      'https://user:pass@auth.example.com/authorize',
      'not a url',
    ]) {
      expect(browserUrlProblem(bad), bad).toBeDefined();
    }
  });

  it('throws AUTH_FAILED naming the server and the reason', () => {
    let error: unknown;
    try {
      assertBrowserUrl('file:///etc/passwd', 'remote');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HarborError);
    expect((error as HarborError).code).toBe('AUTH_FAILED');
    expect((error as HarborError).message).toContain('"remote"');
    expect((error as HarborError).message).toContain('file:');
    expect(assertBrowserUrl('https://a.example/x', 'remote').href).toBe('https://a.example/x');
  });

  it('knows loopback hosts', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false);
  });
});
