// @vitest-environment happy-dom
/**
 * A long conversation opens with its large tool results as previews (conversations.open with
 * resultsOver): the page asks for them so, and a card opened shows its result whole, fetched once
 * with conversations.result.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatToolResult, Conversation } from '../../../preload/contract';
import { ContractTransport } from '../../helpers/contract-transport';
import { baseHandlers, call, empty, layOutMessageLists, renderPage } from './chat-fixtures';

layOutMessageLists();

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const whole: ChatToolResult = { content: [{ type: 'text', text: `first line of the list\n${'x'.repeat(200_000)}\nthe last line of the list` }], isError: false };
const preview: ChatToolResult = { content: [{ type: 'text', text: 'first line of the list…' }], isError: false, omitted: { chars: 200_080, blocks: 1, images: 0 } };

const conversation: Conversation = {
  ...empty('c1', 'Triage'),
  turnCount: 1,
  turns: [
    {
      id: 't1',
      status: 'completed',
      startedAt: 1,
      items: [
        { kind: 'user', text: 'List the issues' },
        { kind: 'toolCall', call: call({ status: 'done', endedAt: 2, result: preview }) },
        { kind: 'assistant', text: 'Here they are.' },
      ],
    },
  ],
};

describe('a conversation with a large tool result', () => {
  it('opens with it as a preview and shows it whole when its card is opened', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [{ id: 'c1', title: 'Triage', createdAt: 1, updatedAt: 1, turnCount: 1 }],
        'conversations.open': (p) => (p.resultsOver === undefined ? { ...conversation, turns: [{ ...conversation.turns[0]!, items: conversation.turns[0]!.items.map((i) => (i.kind === 'toolCall' ? { ...i, call: { ...i.call, result: whole } } : i)) }] } : conversation),
        'conversations.result': () => whole,
      }),
    );
    localStorage.setItem('harbor.ui.chat.lastConversation', JSON.stringify('c1'));
    renderPage(host);
    await screen.findByText('Here they are.');
    expect(host.sent('conversations.open')).toEqual([{ id: 'c1', resultsOver: 16_384 }]);
    // Closed, nothing is fetched.
    expect(host.sent('conversations.result')).toEqual([]);

    const card = screen.getByRole('article', { name: 'Tool call feature › echo' });
    fireEvent.click(within(card).getByRole('button', { expanded: false }));
    const result = await within(card).findByRole('group', { name: 'Result' });
    const text = (whole.content[0] as { text: string }).text;
    fireEvent.click(await within(result).findByRole('button', { name: `Show all ${text.length.toLocaleString('en-US')} characters` }));
    await waitFor(() => expect(result.textContent).toContain('the last line of the list'));
    expect(host.sent('conversations.result')).toEqual([{ id: 'c1', turnId: 't1', callId: 'call-1' }]);

    // Closed and opened again: the whole result is kept, not asked for again.
    fireEvent.click(within(card).getByRole('button', { expanded: true }));
    fireEvent.click(within(card).getByRole('button', { expanded: false }));
    expect(await within(card).findByRole('button', { name: `Show all ${text.length.toLocaleString('en-US')} characters` })).toBeTruthy();
    expect(host.sent('conversations.result')).toHaveLength(1);
  });
});
