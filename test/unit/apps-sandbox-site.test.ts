/**
 * #27.10: the page frames its apps' sandbox on another site than its own (127.0.0.1 ↔ localhost),
 * so the browser's site isolation runs the sandbox proxy in a process of its own.
 */
import { describe, expect, it } from 'vitest';
import { separateSite } from '../../renderer/src/features/apps/sandbox-site';

describe('separateSite', () => {
  const url = 'http://localhost:4100/TOKEN/app/abc';

  it('keeps the sandbox on localhost for a page on 127.0.0.1', () => {
    expect(separateSite(url, 'http://127.0.0.1:4000')).toBe(url);
  });

  it('moves it to 127.0.0.1 for a page on localhost (a port does not make a site)', () => {
    expect(separateSite(url, 'http://localhost:4000')).toBe('http://127.0.0.1:4100/TOKEN/app/abc');
    expect(separateSite('http://127.0.0.1:4100/T/app/x', 'http://127.0.0.1:4000')).toBe('http://localhost:4100/T/app/x');
  });

  it('leaves the desktop door and other hosts alone', () => {
    expect(separateSite('harbor-app://sandbox/app/x', 'file://')).toBe('harbor-app://sandbox/app/x');
    expect(separateSite('http://example.test:4100/x', 'http://example.test:4000')).toBe('http://example.test:4100/x');
  });
});
