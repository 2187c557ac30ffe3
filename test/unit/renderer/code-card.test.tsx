// @vitest-environment happy-dom
/**
 * The run_code card: the script highlighted (its invisible characters shown), each tool call of
 * the script live with its consent, status and timing, the output and the result; Stop on the
 * card stops the turn. On its own and inside the Chat page, fed by chat.* events checked against
 * the contract.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatContext, ChatToolCall, CodeCall, CodeRun, Conversation } from '../../../preload/contract';
import { ChatPage } from '../../../renderer/src/features/chat/ChatPage';
import { CodeCard } from '../../../renderer/src/features/chat/CodeCard';
import { ContractTransport, type EventInput } from '../../helpers/contract-transport';
import { layoutMessageList } from './dom-helpers';
import { WithHost } from './with-host';

let undoLayout: () => void = () => undefined;
beforeAll(() => {
  undoLayout = layoutMessageList();
});
afterAll(() => undoLayout());
afterEach(() => cleanup());

const SCRIPT = "const { orders } = await tools.orders.list_orders({ status: 'open' });\n// total\nreturn orders.length;";

const codeCall = (id: number, extra: Partial<CodeCall> = {}): CodeCall => ({
  id,
  server: 'orders',
  tool: 'list_orders',
  arguments: { status: 'open' },
  status: 'running',
  startedAt: 1_000,
  ...extra,
});

const run = (extra: Partial<CodeRun> = {}): CodeRun => ({ script: SCRIPT, status: 'running', calls: [], logs: [], startedAt: 1_000, ...extra });

const card = (extra: Partial<ChatToolCall> = {}, code: Partial<CodeRun> = {}): ChatToolCall => ({
  id: 'call-run',
  name: 'run_code',
  arguments: { code: SCRIPT },
  status: 'running',
  approval: 'not-needed',
  startedAt: 1_000,
  code: run(code),
  ...extra,
});

describe('CodeCard', () => {
  it('shows the script highlighted, with numbered lines and invisible characters made visible', async () => {
    const { container } = render(<CodeCard call={card({}, { script: 'const label = "admin\u202E";\nreturn label;' })} />);
    // Before the highlighter's chunk has loaded: the same text, unhighlighted.
    expect(screen.getByLabelText('Script').textContent).toContain('"admin⟨U+202E⟩"');
    await waitFor(() => expect(container.querySelector('.code-view .token.keyword')?.textContent).toBe('const'));
    const code = screen.getByLabelText('Script');
    expect(code.textContent).toContain('"admin⟨U+202E⟩"');
    expect(container.querySelector('.code-view .token.string')?.textContent).toBe('"admin⟨U+202E⟩"');
    expect([...container.querySelectorAll('.code-view__number')].map((n) => n.textContent)).toEqual(['1', '2']);
  });

  it('follows the calls live: awaiting consent, running, done with timing; Stop stops the turn', () => {
    const onStop = vi.fn();
    const { rerender } = render(<CodeCard call={card({}, { calls: [codeCall(1, { status: 'awaiting-consent' })] })} onStop={onStop} />);
    const article = screen.getByRole('article', { name: 'Script run_code' });
    expect(within(article).getByText('Running')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'orders › list_orders: Awaiting your consent' })).toBeTruthy();
    expect(within(article).getByText(/asking you whether a call of this script may run/)).toBeTruthy();
    fireEvent.click(within(article).getByRole('button', { name: 'Stop script' }));
    expect(onStop).toHaveBeenCalledTimes(1);

    rerender(
      <CodeCard
        call={card({}, { calls: [codeCall(1, { status: 'done', endedAt: 1_042, approval: 'approved-once' }), codeCall(2, { tool: 'get_order', arguments: { id: 'A-1' } })], logs: [{ level: 'log', text: 'A-1 open' }] })}
        onStop={onStop}
      />,
    );
    const first = screen.getByRole('listitem', { name: 'orders › list_orders: Done' });
    expect(within(first).getByText('42 ms')).toBeTruthy();
    expect(within(first).getByText('You allowed it once.')).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'orders › get_order: Running' }).textContent).toContain('{"id":"A-1"}');
    expect(within(screen.getByRole('region', { name: 'Output of the script' })).getByText('A-1 open')).toBeTruthy();
  });

  it('ends with the result as a table, or with the error and which call was denied', () => {
    const { rerender } = render(
      <CodeCard
        call={card({ status: 'done', endedAt: 2_000 }, { status: 'done', result: [{ id: 'A-1', total: 108 }], calls: [codeCall(1, { status: 'done', endedAt: 1_010 })] })}
      />,
    );
    const article = screen.getByRole('article', { name: 'Script run_code' });
    expect(within(article).getByText('Done', { selector: '.badge' })).toBeTruthy();
    expect(within(article).queryByRole('button', { name: 'Stop script' })).toBeNull();
    const result = screen.getByRole('region', { name: 'Result of the script' });
    expect(within(result).getByRole('table')).toBeTruthy();
    expect(within(result).getByText('108')).toBeTruthy();

    rerender(
      <CodeCard
        call={card(
          { status: 'done', endedAt: 2_000, result: { content: [], isError: true } },
          {
            status: 'error',
            error: { code: 'CONSENT_DENIED', message: 'The script did not catch a failed tool call (line 2): orders.refund: The user denied this call.' },
            calls: [codeCall(1, { tool: 'refund', status: 'error', approval: 'denied', error: { code: 'CONSENT_DENIED', message: 'The user denied this call.' } })],
          },
        )}
      />,
    );
    expect(within(article).getByText('Failed', { selector: '.badge' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'orders › refund: Denied' })).toBeTruthy();
    expect(within(article).getByText('CONSENT_DENIED', { selector: '.notice__code' })).toBeTruthy();
  });

  it('a stopped script says so; a card stored before it finished still shows its script', () => {
    const { rerender } = render(<CodeCard call={card({ status: 'error', error: { code: 'CANCELLED', message: 'Stopped by the person before the script finished.' } }, { status: 'error', error: { code: 'CANCELLED', message: 'Stopped by the person before the script finished.' } })} />);
    expect(screen.getByText('Stopped')).toBeTruthy();
    rerender(<CodeCard call={{ id: 'x', name: 'run_code', arguments: { code: 'return 42;' }, status: 'error', startedAt: 1, error: { code: 'CANCELLED', message: 'Harbor stopped before this call finished.' } }} />);
    expect(screen.getByLabelText('Script').textContent).toContain('return 42;');
  });
});

describe('the Chat page with code mode', () => {
  const context: ChatContext = {
    contextWindow: 128_000,
    toolTokens: 100,
    instructionTokens: 0,
    toolCount: 2,
    searchThresholdTokens: 6_400,
    toolSearch: 'auto',
    mode: 'direct',
    servers: [],
    notConnected: [],
  };
  const empty = (): Conversation => ({ id: 'c1', title: 'totals', createdAt: 1, updatedAt: 1, turnCount: 0, turns: [] });

  it('shows the run_code card of a running turn, its calls as they come, and stops the turn from the card', async () => {
    const host = new ContractTransport({
      'chat.status': () => ({ configured: true, model: { provider: 'openai-compatible', model: 'scripted' } }),
      'chat.context': () => context,
      'conversations.list': () => [],
      'conversations.open': () => empty(),
      'chat.send': () => ({ conversationId: 'c1', turnId: 't1' }),
      'chat.stop': () => ({ stopped: true }),
    });
    render(
      <WithHost transport={host}>
        <ChatPage />
      </WithHost>,
    );
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'total of open orders' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(host.sent('chat.send')).toHaveLength(1));
    const emit = (payload: Omit<EventInput<'chat.toolCall'>, 'conversationId' | 'turnId'>) =>
      act(async () => host.emit('chat.toolCall', { conversationId: 'c1', turnId: 't1', ...payload } as EventInput<'chat.toolCall'>));

    await emit({ call: card() });
    const article = await screen.findByRole('article', { name: 'Script run_code' });
    await emit({ call: card({}, { calls: [codeCall(1, { status: 'awaiting-consent' })] }) });
    expect(within(article).getByRole('listitem', { name: 'orders › list_orders: Awaiting your consent' })).toBeTruthy();
    await emit({ call: card({}, { calls: [codeCall(1, { status: 'done', endedAt: 1_005, approval: 'approved-once' }), codeCall(2, { tool: 'get_order' })] }) });
    expect(within(article).getByRole('listitem', { name: 'orders › get_order: Running' })).toBeTruthy();

    fireEvent.click(within(article).getByRole('button', { name: 'Stop script' }));
    await waitFor(() => expect(host.sent('chat.stop')).toEqual([{ conversationId: 'c1' }]));
  });
});
