// @vitest-environment happy-dom
/**
 * What a message offers, against the contract: Copy on every message, Regenerate on the model's
 * answer (chat.regenerate), Edit on the person's message (chat.send with editOf) and the ‹ 1/2 ›
 * versions (conversations.switchBranch); a failed turn as a card with Retry and Open settings; the
 * last conversation reopening; code blocks with a language and Copy; big JSON rendered level by
 * level; files refused at once, naming the file and why.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatTurn, Conversation, ConversationSummary } from '../../../preload/contract';
import { JsonTree } from '../../../renderer/src/features/chat/JsonTree';
import { Markdown } from '../../../renderer/src/features/chat/Markdown';
import { ProblemCard } from '../../../renderer/src/features/chat/ProblemCard';
import { readFiles } from '../../../renderer/src/features/chat/read-files';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { baseHandlers, empty, layOutMessageLists, renderPage } from './chat-fixtures';

layOutMessageLists();

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const summary: ConversationSummary = { id: 'c1', title: 'Capitals', createdAt: 1, updatedAt: 1, turnCount: 1, lastStatus: 'completed' };

const turn = (id: string, question: string, answer: string, siblings?: string[]): ChatTurn => ({
  id,
  status: 'completed',
  startedAt: 1,
  ...(siblings ? { siblings } : {}),
  items: [
    { kind: 'user', text: question },
    { kind: 'assistant', text: answer },
  ],
});

const conversation = (...turns: ChatTurn[]): Conversation => ({ ...empty('c1', 'Capitals'), turnCount: turns.length, turns });

/** The page with conversation c1 remembered as the last one open (as after a reload). */
function reopen(host: ContractTransport) {
  localStorage.setItem('harbor.ui.chat.lastConversation', JSON.stringify('c1'));
  renderPage(host);
}

describe('message actions', () => {
  it('reopens the last conversation, copies a message, and regenerates an answer as a second version', async () => {
    let shown = conversation(turn('t1', 'Capital of Portugal?', 'Lisbon.'));
    const host: ContractTransport = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [summary],
        'conversations.open': () => shown,
        'chat.regenerate': () => ({ conversationId: 'c1', turnId: 't2' }),
        'conversations.switchBranch': (p) => (p.turnId === 't1' ? conversation(turn('t1', 'Capital of Portugal?', 'Lisbon.', ['t1', 't2'])) : shown),
      }),
    );
    reopen(host);
    const answer = (await screen.findByText('Lisbon.')).closest('.msg') as HTMLElement;
    expect(host.sent('conversations.open')).toEqual([{ id: 'c1', resultsOver: 16_384 }]);

    fireEvent.click(within(answer).getByRole('button', { name: 'Copy' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('Lisbon.'));
    const question = screen.getByText('Capital of Portugal?').closest('.msg') as HTMLElement;
    fireEvent.click(within(question).getByRole('button', { name: 'Copy' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('Capital of Portugal?'));

    fireEvent.click(within(answer).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(host.sent('chat.regenerate')).toEqual([{ conversationId: 'c1', turnId: 't1' }]));
    shown = conversation(turn('t2', 'Capital of Portugal?', 'Lisbon, on the Tagus.', ['t1', 't2']));
    await act(async () => host.emit('chat.done', { conversationId: 'c1', turnId: 't2', status: 'completed', text: 'Lisbon, on the Tagus.' }));
    expect(await screen.findByText('Lisbon, on the Tagus.')).toBeTruthy();
    expect(screen.queryByText('Lisbon.')).toBeNull();

    const versions = screen.getByRole('group', { name: 'Versions of this message' });
    expect(versions.textContent).toContain('2/2');
    expect((within(versions).getByRole('button', { name: 'Next version' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(versions).getByRole('button', { name: 'Previous version' }));
    expect(await screen.findByText('Lisbon.')).toBeTruthy();
    expect(host.sent('conversations.switchBranch')).toEqual([{ id: 'c1', turnId: 't1' }]);
    expect(screen.getByRole('group', { name: 'Versions of this message' }).textContent).toContain('1/2');
  });

  it('edits the person’s message and sends it as a new version of that turn; Escape leaves it as it was', async () => {
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [summary],
        'conversations.open': () => conversation(turn('t1', 'Capital of Portugal?', 'Lisbon.')),
        'chat.send': () => ({ conversationId: 'c1', turnId: 't2' }),
      }),
    );
    reopen(host);
    const question = (await screen.findByText('Capital of Portugal?')).closest('.msg') as HTMLElement;
    fireEvent.click(within(question).getByRole('button', { name: 'Edit' }));
    const box = screen.getByRole('textbox', { name: 'Edited message' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Edit your message' })).toBeNull();

    fireEvent.click(within(screen.getByText('Capital of Portugal?').closest('.msg') as HTMLElement).getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Edited message' }), { target: { value: 'Capital of Spain?' } });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edited message' }), { key: 'Enter' });
    await waitFor(() => expect(host.sent('chat.send')).toEqual([{ conversationId: 'c1', editOf: 't1', text: 'Capital of Spain?' }]));
    // Shown at once in place of the old message, which stays a version away.
    expect(await screen.findByText('Capital of Spain?', { selector: '.msg__bubble p' })).toBeTruthy();
    expect(screen.queryByText('Capital of Portugal?')).toBeNull();
    expect(screen.getByRole('group', { name: 'Versions of this message' }).textContent).toContain('2/2');
  });

  it('after a turn, asks for that turn only (fromTurn) and keeps the earlier turns as shown', async () => {
    const first = turn('t1', 'Capital of Portugal?', 'Lisbon.');
    const stored: ChatTurn = { ...turn('t2', 'Capital of Spain?', 'Madrid.'), items: [...turn('t2', 'Capital of Spain?', 'Madrid.').items, { kind: 'note', text: 'Stored note.' }] };
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [summary],
        // The whole conversation has no t2 yet; asked from t2, only t2 as the store has it.
        'conversations.open': (p) => (p.fromTurn === 't2' ? { ...conversation(stored), turnCount: 2 } : conversation(first)),
        'chat.send': () => ({ conversationId: 'c1', turnId: 't2' }),
      }),
    );
    reopen(host);
    await screen.findByText('Lisbon.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Capital of Spain?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(host.sent('chat.send')).toEqual([{ conversationId: 'c1', text: 'Capital of Spain?' }]));
    await act(async () => host.emit('chat.delta', { conversationId: 'c1', turnId: 't2', text: 'Madrid.' }));
    await act(async () => host.emit('chat.done', { conversationId: 'c1', turnId: 't2', status: 'completed', text: 'Madrid.' }));
    expect(await screen.findByText('Stored note.')).toBeTruthy();
    expect(host.sent('conversations.open')).toEqual([{ id: 'c1', resultsOver: 16_384 }, { id: 'c1', fromTurn: 't2' }]);
    expect(screen.getByText('Lisbon.')).toBeTruthy();
    expect(screen.getByText('Madrid.')).toBeTruthy();
  });

  it('a turn sent before the last one was reloaded: the next reload asks from that last one', async () => {
    const withNote = (t: ChatTurn, note: string): ChatTurn => ({ ...t, items: [...t.items, { kind: 'note', text: note }] });
    const t2 = withNote(turn('t2', 'Capital of Spain?', 'Madrid.'), 'Note of t2.');
    const t3 = withNote(turn('t3', 'And of France?', 'Paris.'), 'Note of t3.');
    let sends = 0;
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [summary],
        'conversations.open': (p) => (p.fromTurn === 't2' ? conversation(t2, t3) : conversation(turn('t1', 'Capital of Portugal?', 'Lisbon.'))),
        'chat.send': () => ({ conversationId: 'c1', turnId: (sends += 1) === 1 ? 't2' : 't3' }),
      }),
    );
    reopen(host);
    await screen.findByText('Lisbon.');
    const send = (text: string) => {
      fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: text } });
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    };
    send('Capital of Spain?');
    await waitFor(() => expect(host.sent('chat.send')).toHaveLength(1));
    await act(async () => {
      host.emit('chat.done', { conversationId: 'c1', turnId: 't2', status: 'completed', text: 'Madrid.' });
      // The next message goes before t2's reload is back: that reload is not shown (t3 runs).
      send('And of France?');
    });
    await waitFor(() => expect(host.sent('chat.send')).toHaveLength(2));
    await act(async () => host.emit('chat.done', { conversationId: 'c1', turnId: 't3', status: 'completed', text: 'Paris.' }));
    expect(await screen.findByText('Note of t3.')).toBeTruthy();
    expect(screen.getByText('Note of t2.')).toBeTruthy();
    expect(host.sent('conversations.open').at(-1)).toEqual({ id: 'c1', fromTurn: 't2' });
    expect(screen.getByText('Lisbon.')).toBeTruthy();
  });

  it('forgets a remembered conversation that is gone, landing on a new one', async () => {
    const host = new ContractTransport(
      baseHandlers({ 'conversations.list': () => [], 'conversations.open': () => failure('CONVERSATION_NOT_FOUND', 'No conversation c1.') }),
    );
    reopen(host);
    expect(await screen.findByText('A new conversation')).toBeTruthy();
    expect(host.sent('conversations.open')).toEqual([{ id: 'c1', resultsOver: 16_384 }]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(localStorage.getItem('harbor.ui.chat.lastConversation')).toBeNull();
  });
});

describe('a failed turn', () => {
  it('is a card: the message once, Retry (regenerates the turn) and Open settings for the model', async () => {
    const failed: ChatTurn = {
      id: 't1',
      status: 'error',
      startedAt: 1,
      error: { code: 'MODEL_ERROR', message: 'The model is overloaded (503).' },
      items: [{ kind: 'user', text: 'hello?' }],
    };
    const host = new ContractTransport(
      baseHandlers({
        'conversations.list': () => [summary],
        'conversations.open': () => conversation(failed),
        'chat.regenerate': () => ({ conversationId: 'c1', turnId: 't2' }),
      }),
    );
    reopen(host);
    const card = await screen.findByRole('alert', { name: 'The model failed' });
    expect(card.textContent).toContain('The model is overloaded (503).');
    expect(within(card).getByRole('link', { name: 'Open settings' }).getAttribute('href')).toBe('#/settings/model');
    fireEvent.click(within(card).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(host.sent('chat.regenerate')).toEqual([{ conversationId: 'c1', turnId: 't1' }]));
  });

  it('offers Open settings only when the fix is in the model’s settings', () => {
    const { rerender } = render(<ProblemCard error={{ code: 'MODEL_ERROR', message: 'The model failed: overloaded.' }} title="The model failed" />);
    // Said once: the Host's message already opens with the title.
    expect(screen.getByRole('alert', { name: 'The model failed' }).textContent?.match(/The model failed/g)).toHaveLength(1);
    rerender(<ProblemCard error={{ code: 'TIMEOUT', message: 'No answer in 60 s.' }} title="This turn failed" />);
    expect(screen.getByRole('alert', { name: 'This turn failed' }).textContent).toContain('This turn failedNo answer in 60 s.');
    expect(screen.queryByRole('link', { name: 'Open settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe('code blocks', () => {
  it('highlight a known language, say it, copy the code exactly; an unnamed block says “text”', async () => {
    const code = 'def greet(name):\n    return "Hello, " + name';
    const { container } = render(<Markdown text={`\`\`\`py\n${code}\n\`\`\`\n\n> Quoted.\n\n\`\`\`\nplain words\n\`\`\``} />);
    const blocks = container.querySelectorAll('.code-block');
    expect(blocks).toHaveLength(2);
    const python = blocks[0] as HTMLElement;
    expect(python.querySelector('.code-block__lang')?.textContent).toBe('py');
    // The highlighter is a chunk of its own: until it has loaded, the same code unhighlighted.
    expect(python.querySelector('pre')?.textContent).toBe(code);
    await waitFor(() => expect(python.querySelector('.token.keyword')?.textContent).toBe('def'));
    expect(python.querySelector('.token.string')?.textContent).toBe('"Hello, "');
    expect(blocks[1]!.querySelector('.code-block__lang')?.textContent).toBe('text');
    expect(blocks[1]!.querySelector('.token')).toBeNull();
    expect(container.querySelector('blockquote')?.textContent?.trim()).toBe('Quoted.');

    fireEvent.click(within(python).getByRole('button', { name: 'Copy code' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(code));
    expect(python.querySelector('.code-block__status')?.textContent).toBe('Copied');
  });
});

describe('JSON trees', () => {
  it('render a level only once opened, and long lists a hundred at a time', () => {
    const value = { items: Array.from({ length: 250 }, (_, i) => ({ id: i, deep: { secret: `value ${i}` } })) };
    const { container } = render(<JsonTree value={value} label="Result" />);
    expect(container.querySelectorAll('li')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: /items/ }));
    expect(container.textContent).not.toContain('value 0');
    const rows = () => container.querySelectorAll('.json__children .json__children > li');
    expect(rows()).toHaveLength(101); // 100 entries and "Show 100 more"
    fireEvent.click(screen.getByRole('button', { name: 'Show 100 more of 250' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show 50 more of 250' }));
    expect(rows()).toHaveLength(250);
    fireEvent.click(screen.getAllByRole('button', { name: /^0/ })[0]!);
    fireEvent.click(screen.getByRole('button', { name: /deep/ }));
    expect(container.textContent).toContain('value 0');
  });
});

describe('reading attached files', () => {
  const model = { name: 'text-only', images: false };

  it('takes text files as text, and refuses at once what cannot go, naming the file and why', async () => {
    const files = [
      new File(['# Notes\nhello'], 'notes.md', { type: '' }),
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' }),
      new File(['%PDF-1.7'], 'paper.pdf', { type: 'application/pdf' }),
      new File([new Uint8Array([0xff, 0xfe, 0x00, 0x41])], 'data.txt', { type: 'text/plain' }),
      new File(['x'.repeat(600_000)], 'huge.log', { type: 'text/plain' }),
    ];
    const { added, refused } = await readFiles(files, [], model);
    expect(added.map((f) => [f.file.name, f.file.kind, f.file.mimeType, f.file.chars])).toEqual([['notes.md', 'text', 'text/markdown', 13]]);
    expect(atob(added[0]!.upload.data)).toBe('# Notes\nhello');
    expect(refused).toEqual([
      'photo.png: the model text-only does not take images. Choose one that does in Settings.',
      'paper.pdf: Harbor attaches images (PNG, JPEG, GIF, WebP) and text files, and this is application/pdf.',
      'data.txt: it is not UTF-8 text. Harbor attaches images (PNG, JPEG, GIF, WebP) and text files.',
      'huge.log: text files may be up to 0.51 MB, and this one is 0.60 MB.',
    ]);
  });

  it('takes images for a model that does, up to eight files a message', async () => {
    const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' });
    const { added, refused } = await readFiles(Array.from({ length: 9 }, png), [], { name: 'vision', images: true });
    expect(added).toHaveLength(8);
    expect(added[0]!.file).toMatchObject({ name: 'shot.png', kind: 'image', mimeType: 'image/png', bytes: 4 });
    expect(refused).toEqual(['shot.png: a message carries at most 8 files.']);
  });
});
