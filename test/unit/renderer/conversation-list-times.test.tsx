// @vitest-environment happy-dom
/**
 * The conversation list's times: the first date formatter of a page is built in a task after the
 * list's first render (it loads the locale data, 20–50 ms), and the times then show.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary } from '../../../preload/contract';

afterEach(() => {
  cleanup();
  vi.resetModules();
});

const summary = (updatedAt: number): ConversationSummary => ({ id: 'c1', title: 'Plans for Friday', createdAt: updatedAt, updatedAt, turnCount: 1 });

describe('conversation list times', () => {
  it('renders the rows first, builds the formatters a task later, then shows each time', async () => {
    // A fresh module graph: no formatter built yet, as on a fresh page.
    const { ConversationList } = await import('../../../renderer/src/features/chat/ConversationList');
    const times = await import('../../../renderer/src/lib/time-format');
    const now = Date.now();
    render(<ConversationList id="list" list={{ status: 'ready', value: [summary(now)] }} openId={undefined} onOpen={() => {}} onNew={() => {}} onRetry={() => {}} />);
    const row = screen.getByRole('button', { name: /Plans for Friday/ });
    expect(times.formattersBuilt(['hourMinute', 'monthDay'])).toBe(false);
    expect(row.querySelector('.conv-list__meta')?.textContent).toBe('');
    await waitFor(() => expect(row.querySelector('.conv-list__meta')?.textContent).toBe(times.formatHourMinute(now)));
    expect(times.formattersBuilt(['hourMinute', 'monthDay'])).toBe(true);
  });
});
