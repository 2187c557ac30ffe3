/**
 * The renderer's link dialogs (url-safety.ts reviewUrl) offer to open exactly what the main
 * process's opener (main/window.ts toExternalUrl) hands to the OS: a dialog never offers a link
 * that then silently does not open (plain http), and never one the opener would refuse (a mailto:
 * attaching a file).
 */
import { describe, expect, it, vi } from 'vitest';
import { OPENABLE_LINK_SCHEMES, OPENABLE_SCHEMES, reviewUrl } from '../../renderer/src/features/elicitation/url-safety';

vi.mock('electron', () => ({ BrowserWindow: class {} }));
const { isAllowedExternalUrl } = await import('../../main/window');

const URLS = [
  'https://example.com/docs',
  'https://xn--pple-43d.com/',
  'https://192.168.1.10/',
  'http://example.com/',
  'http://127.0.0.1:8080/',
  'mailto:someone@example.com',
  'mailto:someone@example.com?subject=Hi&body=Hello',
  'mailto:someone@example.com?attach=/etc/passwd',
  'mailto:someone@example.com?Attachment=C:%5CUsers%5Cme%5C.ssh%5Cid_rsa',
  'mailto:?to=a@example.com&%41TTACH=~/.aws/credentials',
  'https://bank.example@evil.example/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'vscode://file/etc/passwd',
];

describe('link dialogs and the opener agree', () => {
  it.each(URLS)('%s', (url) => {
    const opens = isAllowedExternalUrl(url);
    expect(reviewUrl(url, OPENABLE_LINK_SCHEMES).openable, 'conversation link dialog').toBe(opens);
    if (!url.startsWith('mailto:')) expect(reviewUrl(url, OPENABLE_SCHEMES).openable, 'elicitation URL').toBe(opens);
  });
});
