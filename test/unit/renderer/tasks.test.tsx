// @vitest-environment happy-dom
/**
 * The Tasks panel and the task line of a chat tool card, against the contract
 * (ContractTransport): the kept tasks listed newest first with status, the server's message
 * (untrusted, shown inert), elapsed time, Cancel and the result; live tasks.changed events merged
 * in; a chat conversation reloads when a task of its call ends after the turn.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApi, type ChatToolCall, type Conversation, type TaskView } from '../../../preload/contract';
import { ChatController } from '../../../renderer/src/features/chat/chat-controller';
import { ToolCallCard } from '../../../renderer/src/features/chat/ToolCallCard';
import { TasksPage } from '../../../renderer/src/features/tasks/TasksPage';
import { elapsedText } from '../../../renderer/src/features/tasks/task-list';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

afterEach(cleanup);

const NOW = Date.now();

const task = (extra: Partial<TaskView> = {}): TaskView => ({
  taskId: 'task-1',
  server: 'research',
  tool: 'deep_dive',
  era: 'modern',
  status: 'working',
  statusMessage: 'Reading sources',
  createdAt: new Date(NOW - 65_000).toISOString(),
  lastUpdatedAt: new Date(NOW - 1_000).toISOString(),
  startedAt: NOW - 65_000,
  hasResult: false,
  ...extra,
});

function renderPage(transport: ContractTransport) {
  return render(
    <WithHost transport={transport}>
      <TasksPage />
    </WithHost>,
  );
}

const row = (name: RegExp) => screen.getByRole('listitem', { name });

describe('Tasks panel', () => {
  it('lists the kept tasks with status, the server\'s message, elapsed time, and an error', async () => {
    const transport = new ContractTransport({
      'tasks.list': () => [
        task(),
        task({ taskId: 'task-0', tool: 'explode', status: 'failed', startedAt: NOW - 600_000, endedAt: NOW - 590_000, error: { code: -32603, message: 'The reactor overheated' }, statusMessage: 'Tool execution failed' }),
      ],
    });
    renderPage(transport);
    const running = await waitFor(() => row(/research › deep_dive/));
    expect(within(running).getByText('Working')).toBeTruthy();
    expect(within(running).getByText('Reading sources')).toBeTruthy();
    expect(within(running).getByText('1 min')).toBeTruthy();
    expect(within(running).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    const failed = row(/research › explode/);
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText('10 s')).toBeTruthy();
    expect(within(failed).getByText(/The reactor overheated/)).toBeTruthy();
    expect(within(failed).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('says when there are none yet, and shows a failure to list', async () => {
    renderPage(new ContractTransport({ 'tasks.list': () => [] }));
    expect(await screen.findByText('No tasks yet')).toBeTruthy();
    cleanup();
    renderPage(new ContractTransport({ 'tasks.list': () => failure('DATA_CORRUPT', 'The tasks database is damaged.') }));
    expect((await screen.findByRole('alert')).textContent).toContain('The tasks database is damaged.');
  });

  it('merges live tasks.changed events: a new task appears, a running one ends', async () => {
    const transport = new ContractTransport({ 'tasks.list': () => [task()] });
    renderPage(transport);
    await waitFor(() => row(/research › deep_dive/));
    act(() => transport.emit('tasks.changed', { task: task({ taskId: 'task-2', tool: 'summarize', startedAt: NOW }) }));
    act(() => transport.emit('tasks.changed', { task: task({ status: 'completed', statusMessage: 'Done.', endedAt: NOW, hasResult: true }) }));
    const items = screen.getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual(['Task research › summarize', 'Task research › deep_dive']);
    expect(within(row(/deep_dive/)).getByText('Completed')).toBeTruthy();
    expect(within(row(/deep_dive/)).getByRole('button', { name: 'Open result' })).toBeTruthy();
  });

  it('Cancel asks the Host to cancel that task; the row then says the cancel was asked', async () => {
    const transport = new ContractTransport({ 'tasks.list': () => [task()], 'tasks.cancel': () => ({ cancelled: true }) });
    renderPage(transport);
    fireEvent.click(await waitFor(() => within(row(/deep_dive/)).getByRole('button', { name: 'Cancel' })));
    await waitFor(() => expect(transport.calls.filter((c) => c.command === 'tasks.cancel')).toEqual([{ command: 'tasks.cancel', payload: { server: 'research', taskId: 'task-1' } }]));
    act(() => transport.emit('tasks.changed', { task: task({ cancelRequested: true }) }));
    expect(within(row(/deep_dive/)).getByText('Working (cancelling)')).toBeTruthy();
    expect((within(row(/deep_dive/)).getByRole('button', { name: 'Cancel asked' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('opens a completed task\'s result: its content and structured content', async () => {
    const done = task({ status: 'completed', endedAt: NOW, hasResult: true });
    const transport = new ContractTransport({
      'tasks.list': () => [done],
      'tasks.result': () => ({ task: done, result: { content: [{ type: 'text', text: 'Three sources agree.' }], structuredContent: { sources: 3 } } }),
    });
    renderPage(transport);
    fireEvent.click(await waitFor(() => within(row(/deep_dive/)).getByRole('button', { name: 'Open result' })));
    const result = await waitFor(() => within(row(/deep_dive/)).getByRole('region', { name: 'Result' }));
    expect(within(result).getByText('Three sources agree.')).toBeTruthy();
    expect(result.textContent).toContain('"sources": 3');
    expect(transport.calls.find((c) => c.command === 'tasks.result')?.payload).toEqual({ server: 'research', taskId: 'task-1' });
  });

  it('shows a server\'s message inert: bidi overrides and controls are visible, not acting', async () => {
    renderPage(new ContractTransport({ 'tasks.list': () => [task({ statusMessage: 'report\u202Etxt.exe' })] }));
    expect(await screen.findByText('report⟨U+202E⟩txt.exe')).toBeTruthy();
  });

  it('elapsed time reads in seconds, minutes, hours', () => {
    expect(elapsedText({ startedAt: 0, endedAt: 12_000 }, 0)).toBe('12 s');
    expect(elapsedText({ startedAt: 0 }, 185_000)).toBe('3 min');
    expect(elapsedText({ startedAt: 0, endedAt: 7_500_000 }, 0)).toBe('2 h 5 min');
  });
});

describe('a chat tool card run as a task', () => {
  const call: ChatToolCall = { id: 'call-1', name: 'research__deep_dive', server: 'research', tool: 'deep_dive', arguments: {}, status: 'running', startedAt: 1 };

  it('shows the task\'s status and the server\'s message', () => {
    render(<ToolCallCard call={{ ...call, task: { taskId: 'task-1', status: 'input_required', statusMessage: 'Waiting for an answer' } }} />);
    expect(screen.getByText('Task needs your answer').parentElement!.textContent).toBe('Task needs your answer: Waiting for an answer');
    expect(screen.getByRole('status').textContent).toBe('Running as a task on the server…');
  });

  it('the open conversation reloads when a task of its call ends after the turn', async () => {
    const conversation: Conversation = { id: 'c1', title: 'research', createdAt: 1, updatedAt: 1, turnCount: 0, turns: [] };
    const transport = new ContractTransport({ 'conversations.list': () => [], 'conversations.open': () => conversation });
    const controller = new ChatController(buildApi(transport));
    controller.start();
    await controller.open('c1');
    const opens = () => transport.calls.filter((c) => c.command === 'conversations.open').length;
    expect(opens()).toBe(1);
    transport.emit('tasks.changed', { task: task({ origin: { conversationId: 'c1', turnId: 't1', toolCallId: 'call-1' } }) });
    transport.emit('tasks.changed', { task: task({ origin: { conversationId: 'other', turnId: 't9' }, endedAt: NOW, status: 'completed', hasResult: true }) });
    expect(opens()).toBe(1);
    transport.emit('tasks.changed', { task: task({ origin: { conversationId: 'c1', turnId: 't1', toolCallId: 'call-1' }, endedAt: NOW, status: 'completed', hasResult: true }) });
    await waitFor(() => expect(opens()).toBe(2));
    controller.stop();
  });
});
