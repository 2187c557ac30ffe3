// @vitest-environment happy-dom
/**
 * The toolset picker beside the message box: a new conversation sends its toolset with its first
 * message; a stored one remembers the choice at once (conversations.setToolset) and shows it in
 * the header. Rendered on the Chat page over the contract transport.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../preload/contract';
import { ContractTransport } from '../../helpers/contract-transport';
import { baseHandlers, empty, layOutMessageLists, renderPage, settings } from './chat-fixtures';

layOutMessageLists();
afterEach(cleanup);

const withToolsets = () => ({ ...settings(), toolsets: { research: ['notes/*'], shop: ['orders/refund'] } });

describe('toolset picker', () => {
  it('a new conversation sends the chosen toolset with its first message', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'settings.get': withToolsets,
        'chat.send': () => ({ conversationId: 'c1', turnId: 't1' }),
        'conversations.open': () => empty('c1'),
      }),
    );
    renderPage(host);
    const picker = await screen.findByLabelText('Toolset');
    await waitFor(() => expect(screen.getByRole('option', { name: 'research' })).toBeTruthy());
    fireEvent.change(picker, { target: { value: 'research' } });
    const box = screen.getByRole('textbox', { name: /message/i });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(host.sent('chat.send').length).toBe(1));
    expect(host.sent('chat.send')[0]).toMatchObject({ text: 'hello', toolset: 'research' });
  });

  it('a stored conversation remembers the choice at once, and its header shows it', async () => {
    let summary: ConversationSummary = { id: 'c1', title: 'Stored', createdAt: 1, updatedAt: 1, turnCount: 0 };
    const host = new ContractTransport(
      baseHandlers({
        'settings.get': withToolsets,
        'conversations.list': () => [summary],
        'conversations.open': () => ({ ...empty('c1', 'Stored'), ...summary }),
        'conversations.setToolset': (request) => {
          const { toolset } = request as { toolset: string | null };
          summary = { ...summary, ...(toolset ? { toolset } : {}) };
          return summary;
        },
      }),
    );
    renderPage(host);
    fireEvent.click((await screen.findAllByText('Stored'))[0]!);
    const picker = await screen.findByLabelText('Toolset');
    await waitFor(() => expect(screen.getByRole('option', { name: 'shop' })).toBeTruthy());
    fireEvent.change(picker, { target: { value: 'shop' } });
    await waitFor(() => expect(host.sent('conversations.setToolset')).toEqual([{ id: 'c1', toolset: 'shop' }]));
    expect(await screen.findByText('Toolset: shop')).toBeTruthy();
  });
});
