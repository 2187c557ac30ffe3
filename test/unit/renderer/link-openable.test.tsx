// @vitest-environment happy-dom
/**
 * The link dialogs offer to open only what Harbor's opener opens (main/window.ts toExternalUrl):
 * https, and in the conversation mailto — never plain http (the opener would drop it silently) and
 * never a mailto: that attaches a file. Each refusal says why, with Open disabled. (That the two
 * agree URL by URL: test/unit/link-opener-agreement.test.ts.)
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LinkCheckDialog } from '../../../renderer/src/features/chat/LinkCheckDialog';
import { ElicitationDialog } from '../../../renderer/src/features/elicitation/ElicitationDialog';
import { OPENABLE_LINK_SCHEMES, reviewUrl } from '../../../renderer/src/features/elicitation/url-safety';

afterEach(cleanup);

const openButton = () => screen.getByRole('button', { name: 'Open in browser' }) as HTMLButtonElement;

const CASES: ReadonlyArray<readonly [string, boolean]> = [
  ['https://example.com/docs', true],
  ['mailto:someone@example.com?subject=Hi', true],
  ['http://example.com/docs', false],
  ['mailto:someone@example.com?attach=/etc/passwd', false],
  ['mailto:someone@example.com?subject=x&ATTACHMENT=~/.ssh/id_rsa', false],
  ['mailto:someone@example.com?%61ttach=%2Fetc%2Fpasswd', false],
];

describe('the conversation\'s link dialog', () => {
  it.each(CASES)('%s: offered %s, exactly as the opener decides', (href, offered) => {
    expect(reviewUrl(href, OPENABLE_LINK_SCHEMES).openable).toBe(offered);
    const opened = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<LinkCheckDialog href={href} onClose={() => undefined} />);
    expect(openButton().disabled).toBe(!offered);
    if (!offered) expect(within(screen.getByRole('dialog')).getByRole('alert').textContent).toMatch(/plain http|attach a file/);
    fireEvent.click(openButton());
    expect(opened).toHaveBeenCalledTimes(offered ? 1 : 0);
    opened.mockRestore();
  });
});

describe('an elicitation URL', () => {
  it('plain http is not offered (the opener would not open it)', () => {
    const open = vi.fn();
    render(
      <ElicitationDialog
        request={{ id: 'e', server: 's', mode: 'url', message: 'Sign in', url: 'http://example.com/login', deadline: Date.now() + 60_000 }}
        waiting={0}
        onAnswer={() => undefined}
        open={open}
      />,
    );
    expect(openButton().disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toContain('plain http');
  });
});
