// @vitest-environment happy-dom
/**
 * The Chat page against the contract: live turns folded in from chat.* events (even events that
 * beat the answer to chat.send), tool cards through their states, Stop, the conversation list
 * (new, open, rename, delete, export as a download), the model picker and the no-model setup with
 * the Ollama offer, the context meter, attachments, prompts as slash commands with completion
 * suggestions, checked links, and a 1,000-message conversation that keeps the DOM small.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, ConversationSummary } from '../../../preload/contract';
import { ChatController } from '../../../renderer/src/features/chat/chat-controller';
import { addSentTurn, applyDelta, applyDone, applyToolCall, rowsOf, type Row } from '../../../renderer/src/features/chat/conversation-model';
import { MessageList } from '../../../renderer/src/features/chat/MessageList';
import { matchCommands, promptText, type PromptCommand } from '../../../renderer/src/features/chat/prompt-commands';
import { ToolCallCard } from '../../../renderer/src/features/chat/ToolCallCard';
import { ContractTransport, failure, type EventInput } from '../../helpers/contract-transport';
import { baseHandlers, call, empty, layOutMessageLists, renderPage, settings } from './chat-fixtures';

layOutMessageLists();

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  // The last open conversation is remembered (harbor.ui.* keys): each test starts without one.
  localStorage.clear();
});

describe('conversation model', () => {
  it('folds streamed text, tool call updates and the end of a turn into the conversation', () => {
    let c = addSentTurn(empty(), 't1', { text: 'hello' });
    c = applyDelta(c, { conversationId: 'c1', turnId: 't1', text: 'Let me ' });
    c = applyDelta(c, { conversationId: 'c1', turnId: 't1', text: 'check.' });
    c = applyToolCall(c, { conversationId: 'c1', turnId: 't1', call: call({ status: 'awaiting-consent' }) });
    const before = rowsOf(c);
    c = applyToolCall(c, { conversationId: 'c1', turnId: 't1', call: call({ status: 'done', result: { content: [{ type: 'text', text: 'hi' }], isError: false } }) });
    c = applyDelta(c, { conversationId: 'c1', turnId: 't1', text: 'It said hi.' });
    const during = rowsOf(c);
    expect(during.map((r) => r.kind === 'item' ? r.item.kind : r.kind)).toEqual(['user', 'assistant', 'toolCall', 'assistant', 'working']);
    // A call keeps its row key from one state to the next; unchanged rows keep their identity.
    expect(during[2]!.key).toBe(before[2]!.key);
    expect((during[0] as Extract<Row, { kind: 'item' }>).item).toBe((before[0] as Extract<Row, { kind: 'item' }>).item);
    c = applyDone(c, { conversationId: 'c1', turnId: 't1', status: 'completed', text: 'It said hi.' });
    expect(rowsOf(c).map((r) => r.kind)).toEqual(['item', 'item', 'item', 'item']);
  });

  it('shows a failed turn’s error when the store has no note for it', () => {
    const c = applyDone(addSentTurn(empty(), 't1', { text: 'x' }), { conversationId: 'c1', turnId: 't1', status: 'error', text: '', error: { code: 'MODEL_ERROR', message: 'The model is down.' } });
    expect(rowsOf(c).at(-1)).toMatchObject({ kind: 'turnError' });
  });
});

describe('ChatController', () => {
  it('keeps events that arrive before chat.send answers, and reloads the stored conversation when the turn ends', async () => {
    const stored: Conversation = {
      ...empty('c1', 'hello'),
      turns: [{ id: 't1', status: 'completed', startedAt: 1, items: [{ kind: 'user', text: 'hello' }, { kind: 'assistant', text: 'Hi!' }, { kind: 'note', text: 'stored note' }] }],
    };
    const host: ContractTransport = new ContractTransport(
      baseHandlers({
        'chat.send': () => {
          // The Host's first events can beat its answer over the socket.
          host.emit('chat.delta', { conversationId: 'c1', turnId: 't1', text: 'Hi' });
          return { conversationId: 'c1', turnId: 't1' };
        },
        'conversations.open': () => stored,
      }),
    );
    const controller = new ChatController(host.api);
    controller.start();
    expect(await controller.send('hello')).toBe(true);
    const state = controller.snapshot();
    expect(state.openId).toBe('c1');
    const items = state.conversation.status === 'ready' ? state.conversation.value.turns[0]!.items : [];
    expect(items).toEqual([{ kind: 'user', text: 'hello' }, { kind: 'assistant', text: 'Hi' }]);

    host.emit('chat.delta', { conversationId: 'c1', turnId: 't1', text: '!' });
    host.emit('chat.toolCall', { conversationId: 'c1', turnId: 't1', call: call({ status: 'progress' }), progress: { progress: 2, total: 5, message: 'step 2/5' } });
    expect(controller.snapshot().progress.get('call-1')).toEqual({ progress: 2, total: 5, message: 'step 2/5' });
    // Another conversation's events do not touch this one.
    host.emit('chat.delta', { conversationId: 'other', turnId: 'tx', text: 'nope' });
    host.emit('chat.done', { conversationId: 'c1', turnId: 't1', status: 'completed', text: 'Hi!' });
    await waitFor(() => expect(controller.snapshot().conversation).toEqual({ status: 'ready', value: stored }));
    expect(host.sent('conversations.list').length).toBeGreaterThanOrEqual(2);
    controller.stop();
  });

  it('reports a failed send and keeps the person’s text for another try', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'chat.send': () => failure('MODEL_NOT_CONFIGURED', 'No chat model is configured.'),
      }),
    );
    const controller = new ChatController(host.api);
    expect(await controller.send('hello')).toBe(false);
    expect(controller.snapshot().error).toEqual({ code: 'MODEL_NOT_CONFIGURED', message: 'No chat model is configured.' });
  });
});

describe('ToolCallCard', () => {
  it.each([
    [call({ status: 'awaiting-consent' }), 'Awaiting your consent'],
    [call({ status: 'running' }), 'Running'],
    [call({ status: 'done', result: { content: [], isError: false } }), 'Done'],
    [call({ status: 'done', result: { content: [{ type: 'text', text: 'bad' }], isError: true } }), 'The tool reported an error'],
    [call({ status: 'error', error: { code: 'CANCELLED', message: 'Stopped by the person before the tool finished.' } }), 'Cancelled'],
    [call({ status: 'error', approval: 'denied', error: { code: 'CONSENT_DENIED', message: 'The user denied this call.' } }), 'Denied'],
    [call({ status: 'error', error: { code: 'TIMEOUT', message: 'No answer in 60 s.' } }), 'Failed'],
  ])('labels %# as “%s”', (c, label) => {
    render(<ToolCallCard call={c} />);
    expect(within(screen.getByRole('article', { name: 'Tool call feature › echo' })).getByText(label)).toBeTruthy();
  });

  it('shows progress with its message, then a collapsible result with structured content as a table', () => {
    const { rerender } = render(<ToolCallCard call={call({ status: 'progress' })} progress={{ progress: 3, total: 5, message: 'step 3/5' }} />);
    const bar = screen.getByRole('progressbar', { name: 'Progress of echo' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([3, 5]);
    expect(screen.getByRole('status').textContent).toBe('step 3/5');

    rerender(
      <ToolCallCard
        call={call({ status: 'done', approval: 'approved-once', result: { content: [{ type: 'text', text: '42' }], structuredContent: { rows: [{ a: 1, b: 'x' }, { a: 2, b: 'y' }] }, isError: false } })}
      />,
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
    // Collapsed by default: one line; it opens to the result and how consent went.
    const line = screen.getByRole('button', { name: /feature.*echo.*Done/ });
    expect(line.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('row')).toBeNull();
    fireEvent.click(line);
    expect(screen.getByText('You allowed it once.')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'JSON' }));
    expect(screen.getByText(/"rows": \[/)).toBeTruthy();
    fireEvent.click(line);
    expect(screen.queryByText(/"rows": \[/)).toBeNull();
    expect(line.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('ChatPage', () => {
  it('sends a message and follows the turn: consent, progress, result, answer; Stop while it runs', async () => {
    const host: ContractTransport = new ContractTransport(
      baseHandlers({
        'chat.send': () => ({ conversationId: 'c1', turnId: 't1' }),
        'chat.stop': () => ({ stopped: true }),
        'conversations.open': () => empty('c1', 'echo hi'),
      }),
    );
    renderPage(host);
    expect(await screen.findByText(/Tool definitions: 1,234 tokens/)).toBeTruthy();
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'echo hi' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(host.sent('chat.send')).toEqual([{ text: 'echo hi' }]));
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(await screen.findByText('echo hi', { selector: '.msg--user p' })).toBeTruthy();
    expect(screen.getByText('Working…')).toBeTruthy();

    const emit = <K extends 'chat.delta' | 'chat.toolCall'>(event: K, payload: Omit<EventInput<K>, 'conversationId' | 'turnId'>) =>
      act(async () => host.emit(event, { conversationId: 'c1', turnId: 't1', ...payload } as EventInput<K>));
    await emit('chat.delta', { text: 'Calling **echo**.' });
    await emit('chat.toolCall', { call: call({ status: 'awaiting-consent' }) });
    const card = screen.getByRole('article', { name: 'Tool call feature › echo' });
    expect(within(card).getByText('Awaiting your consent')).toBeTruthy();
    await emit('chat.toolCall', { call: call({ status: 'progress' }), progress: { progress: 1, total: 4, message: 'step 1/4' } });
    expect(within(card).getByText('step 1/4')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(host.sent('chat.stop')).toEqual([{ conversationId: 'c1' }]));

    await emit('chat.toolCall', { call: call({ status: 'done', approval: 'approved-once', result: { content: [{ type: 'text', text: 'hi' }], isError: false } }) });
    await emit('chat.delta', { text: 'It said hi.' });
    expect(within(card).getByText('Done')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: /echo/ }));
    expect(within(card).getByText('hi', { selector: 'pre' })).toBeTruthy();
    expect(screen.getByText('It said hi.')).toBeTruthy();
    // Markdown renders once its lazily loaded chunk is in (slower on a busy machine).
    expect(await screen.findByText('echo', { selector: '.md strong' }, { timeout: 10_000 })).toBeTruthy();
  });

  it('says which servers the conversation used are missing from this turn and why, and keeps saying it after the turn ends (#28)', async () => {
    const stored: Conversation = {
      ...empty('c1', 'again'),
      turns: [{ id: 't1', status: 'completed', startedAt: 1, items: [{ kind: 'user', text: 'again' }, { kind: 'assistant', text: 'I cannot reach notes now.' }] }],
    };
    let turnEnded = false;
    const host: ContractTransport = new ContractTransport(
      baseHandlers({
        'chat.send': () => ({ conversationId: 'c1', turnId: 't1' }),
        'conversations.open': () => (turnEnded ? stored : empty('c1', 'again')),
      }),
    );
    renderPage(host);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'again' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(host.sent('chat.send')).toHaveLength(1));
    await act(async () =>
      host.emit('chat.missing', { conversationId: 'c1', turnId: 't1', servers: [{ server: 'notes', reason: 'crashed 3 times (it said: "fatal: missing config FOO") — see its log' }] }),
    );
    const notice = await screen.findByRole('note', { name: 'Servers missing from this turn' });
    expect(notice.textContent).toBe('Not available this turn — notes: crashed 3 times (it said: "fatal: missing config FOO") — see its log');
    expect(within(notice).getByRole('link', { name: 'notes' }).getAttribute('href')).toBe('#/servers/notes');
    // Before the answer, right after the person's message.
    const order = [...document.querySelectorAll('.msg')].map((el) => el.className);
    expect(order.findIndex((c) => c.includes('msg--missing'))).toBe(order.findIndex((c) => c.includes('msg--user')) + 1);

    turnEnded = true;
    await act(async () => host.emit('chat.done', { conversationId: 'c1', turnId: 't1', status: 'completed', text: 'I cannot reach notes now.' }));
    expect(await screen.findByText('I cannot reach notes now.')).toBeTruthy();
    expect(screen.getByRole('note', { name: 'Servers missing from this turn' })).toBeTruthy();
  });

  it('opens, renames, exports and deletes conversations', async () => {
    const summary: ConversationSummary = { id: 'c9', title: 'Old chat', createdAt: 1, updatedAt: Date.now(), turnCount: 1, lastStatus: 'completed' };
    let title = 'Old chat';
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [{ ...summary, title }],
        'conversations.open': () => ({ ...summary, title, turns: [{ id: 't', status: 'completed', startedAt: 1, items: [{ kind: 'user', text: 'earlier question' }] }] }),
        'conversations.rename': (p) => {
          title = String(p.title);
          return { ...summary, title };
        },
        'conversations.export': (p) => ({ filename: p.format === 'json' ? 'old-chat.json' : 'old-chat.md', mimeType: 'text/markdown', content: '# Old chat\n' }),
        'conversations.delete': () => ({ deleted: true }),
      }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPage(host);
    fireEvent.click(await screen.findByRole('button', { name: /Old chat/ }));
    expect(await screen.findByText('earlier question')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Old chat/ }).getAttribute('aria-current')).toBe('true');

    const menu = () => fireEvent.click(screen.getByRole('button', { name: 'Conversation actions' }));
    menu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Conversation title' }), { target: { value: 'Renamed chat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Renamed chat' })).toBeTruthy();
    expect(host.sent('conversations.rename')).toEqual([{ id: 'c9', title: 'Renamed chat' }]);

    menu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Export Markdown' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('old-chat.md');
    expect(link.href).toMatch(/^blob:/);
    expect(host.sent('conversations.export')).toEqual([{ id: 'c9', format: 'markdown' }]);

    menu();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete this conversation?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(host.sent('conversations.delete')).toEqual([{ id: 'c9' }]));
    expect(await screen.findByText('A new conversation')).toBeTruthy();
  });

  it('without a model, offers to choose one (and a local Ollama) once, with the composer off', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'chat.status': () => ({
          configured: false,
          help: 'No chat model is configured. Add a "model" entry to /x/harbor.json',
          ollama: { url: 'http://127.0.0.1:11434', models: ['llama3.2:latest', 'qwen3:8b'], config: {} },
        }),
        'settings.setModel': () => settings({ provider: 'openai-compatible', model: 'qwen3:8b', baseURL: 'http://127.0.0.1:11434/v1', apiKey: { kind: 'env' } }),
      }),
    );
    renderPage(host);
    expect(await screen.findByRole('button', { name: 'Choose a model' })).toBeTruthy();
    // The Host's CLI recipe (the config file's "model" entry) is not the page's way.
    expect(screen.queryByText(/No chat model is configured/)).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole('combobox', { name: 'Ollama model' }), { target: { value: 'qwen3:8b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Use Ollama' }));
    await waitFor(() =>
      expect(host.sent('settings.setModel')).toEqual([
        { model: { provider: 'openai-compatible', model: 'qwen3:8b', baseURL: 'http://127.0.0.1:11434/v1', apiKeyMode: 'env' } },
      ]),
    );
    await waitFor(() => expect(host.sent('chat.status').length).toBe(2));
  });

  it('switches the model among those the endpoint offers, keeping provider and key', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'settings.get': () => settings({ provider: 'openai-compatible', model: 'scripted', baseURL: 'http://127.0.0.1:9/v1', apiKey: { kind: 'env' } }),
        'settings.setModel': () => settings({ provider: 'openai-compatible', model: 'scripted-large', baseURL: 'http://127.0.0.1:9/v1', apiKey: { kind: 'env' } }),
      }),
    );
    renderPage(host);
    const picker = (await screen.findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    expect([...picker.options].map((o) => o.value)).toEqual(['scripted', 'scripted-large']);
    fireEvent.change(picker, { target: { value: 'scripted-large' } });
    await waitFor(() =>
      expect(host.sent('settings.setModel')).toEqual([
        { model: { provider: 'openai-compatible', model: 'scripted-large', baseURL: 'http://127.0.0.1:9/v1', apiKeyMode: 'keep' } },
      ]),
    );
  });

  it('attaches a resource the person picks, and sends it with the next message', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'servers.list': () => [
          { name: 'feature', transport: 'stdio', enabled: true, trusted: true, target: 'node f.mjs', state: { kind: 'ready' }, counts: { tools: 9, resources: 1, resourceTemplates: 2, prompts: 1 } },
        ],
        'catalog.get': () => ({ server: 'feature', tools: [], resources: [{ uri: 'fixture://hello', name: 'hello', title: 'Hello', mimeType: 'text/plain' }], resourceTemplates: [], prompts: [] }),
        'chat.send': () => ({ conversationId: 'c1', turnId: 't1' }),
        'conversations.open': () => empty(),
      }),
    );
    renderPage(host);
    fireEvent.click(screen.getByRole('button', { name: 'Attach resource' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Attach Hello' }));
    const chips = screen.getByRole('list', { name: 'Attachments for the next message' });
    expect(chips.textContent).toContain('Hello');
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'What does it say?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(host.sent('chat.send')).toEqual([{ text: 'What does it say?', attachments: [{ server: 'feature', uri: 'fixture://hello' }] }]));
    expect(screen.queryByRole('list', { name: 'Attachments for the next message' })).toBeNull();
    // Shown in the sent message as a chip.
    expect(within(await screen.findByRole('list', { name: 'Attached resources' })).getByText(/fixture:\/\/hello/)).toBeTruthy();
  });

  it('runs a prompt as a slash command, with the server’s completion suggestions', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'servers.list': () => [
          { name: 'notes', transport: 'stdio', enabled: true, trusted: true, target: 'node n.mjs', state: { kind: 'ready' }, counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 1 } },
        ],
        'catalog.get': () => ({
          server: 'notes',
          tools: [],
          resources: [],
          resourceTemplates: [],
          prompts: [{ name: 'summarize_notes', title: 'Summarize my notes', arguments: [{ name: 'style', description: 'How to summarize', required: true }] }],
        }),
        'completion.complete': (p) => ({ values: ['bullet', 'brief', 'detailed'].filter((v) => v.startsWith(String((p.argument as { value: string }).value))) }),
        'prompts.get': (p) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize my notes, ${String((p.arguments as { style: string }).style)} style.` } }] }),
      }),
    );
    renderPage(host);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: '/sum' } });
    const option = await screen.findByRole('option', { name: /\/notes\.summarize_notes/ });
    expect(option.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: '/notes.summarize_notes' });
    // Required is checked before the server is asked.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use prompt' }));
    expect(await within(dialog).findByText('Fill in style.')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /style/ }), { target: { value: 'b' } });
    const suggestions = await within(dialog).findByRole('group', { name: 'Suggestions for style' }, { timeout: 3000 });
    expect(within(suggestions).getAllByRole('button').map((b) => b.textContent)).toEqual(['bullet', 'brief']);
    fireEvent.click(within(suggestions).getByRole('button', { name: 'brief' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use prompt' }));
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe('Summarize my notes, brief style.'));
    expect(host.sent('prompts.get')).toEqual([{ server: 'notes', name: 'summarize_notes', arguments: { style: 'brief' } }]);
    expect(host.sent('completion.complete')[0]).toMatchObject({ server: 'notes', ref: { type: 'ref/prompt', name: 'summarize_notes' }, argument: { name: 'style' } });
  });

  it('checks a link with the person before opening it outside the app', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [{ id: 'c1', title: 'links', createdAt: 1, updatedAt: 1, turnCount: 1 }],
        'conversations.open': () => ({
          ...empty('c1', 'links'),
          turns: [{ id: 't', status: 'completed', startedAt: 1, items: [{ kind: 'assistant', text: 'See [your bank](https://accounts.example.com.evil.example/login).' }] }],
        }),
      }),
    );
    renderPage(host);
    fireEvent.click(await screen.findByRole('button', { name: /links/ }));
    fireEvent.click(await screen.findByRole('link', { name: 'your bank' }));
    const dialog = screen.getByRole('dialog', { name: 'Open this link in your browser?' });
    expect(dialog.querySelector('mark')?.textContent).toBe('evil.example');
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Open in browser' }));
    expect(open).toHaveBeenCalledWith('https://accounts.example.com.evil.example/login', '_blank', 'noopener,noreferrer');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('prompt commands', () => {
  const commands: PromptCommand[] = [
    { command: '/feature.greet', server: 'feature', name: 'greet', arguments: [] },
    { command: '/notes.summarize_notes', server: 'notes', name: 'summarize_notes', arguments: [] },
  ];
  it('matches by server.prompt prefix, by prompt name, then anywhere', () => {
    expect(matchCommands(commands, '/').map((c) => c.command)).toEqual(['/feature.greet', '/notes.summarize_notes']);
    expect(matchCommands(commands, '/notes').map((c) => c.command)).toEqual(['/notes.summarize_notes']);
    expect(matchCommands(commands, '/gr').map((c) => c.command)).toEqual(['/feature.greet']);
    expect(matchCommands(commands, '/notes_').map((c) => c.command)).toEqual([]);
    expect(matchCommands(commands, '/mar').map((c) => c.command)).toEqual(['/notes.summarize_notes']);
  });

  it('renders a prompt’s messages as the text of the next message', () => {
    expect(
      promptText({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hello, Ada!' } },
          { role: 'assistant', content: { type: 'text', text: 'Hi.' } },
          { role: 'user', content: { type: 'resource', resource: { uri: 'x://y', text: 'attached text' } } },
        ],
      }),
    ).toBe('Hello, Ada!\n\nAssistant: Hi.\n\nattached text');
  });
});

describe('a 1,000-message conversation', () => {
  const rows = (n: number): Row[] =>
    Array.from({ length: n }, (_, i) => ({
      key: `t${i}:0`,
      kind: 'item' as const,
      turnId: `t${i}`,
      item: i % 2 === 0 ? { kind: 'user' as const, text: `question ${i}` } : { kind: 'assistant' as const, text: `**answer** ${i} with a [link](https://example.com/${i})` },
    }));

  it('keeps only what is on screen in the DOM, and stays small as messages are added', () => {
    const { container, rerender } = render(<MessageList rows={rows(1000)} progress={new Map()} initialRect={{ width: 800, height: 600 }} />);
    const items = container.querySelectorAll('[role="listitem"]');
    expect(items.length).toBeGreaterThan(3);
    expect(items.length).toBeLessThan(40);
    expect(items[0]!.getAttribute('aria-setsize')).toBe('1000');
    // Small after every message added (the list's speed is measured by the bench's ui-scale, not here).
    for (let n = 1001; n <= 1020; n += 1) {
      rerender(<MessageList rows={rows(n)} progress={new Map()} initialRect={{ width: 800, height: 600 }} />);
      const shown = container.querySelectorAll('[role="listitem"]');
      expect(shown.length).toBeLessThan(40);
      expect(shown[0]!.getAttribute('aria-setsize')).toBe(String(n));
    }
  });
});
