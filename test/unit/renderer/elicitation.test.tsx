// @vitest-environment happy-dom
/**
 * The elicitation dialog: a server's question with its form (restricted schema, defaults, inline
 * validation), accept / decline / cancel, the password/token warning, and URL mode (full URL,
 * domain highlighted, look-alike warnings, opened only by an explicit click, never fetched). The
 * app-wide host answers each question through the door it came from.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ElicitationDialog, type PendingElicitation } from '../../../renderer/src/features/elicitation/ElicitationDialog';
import { ElicitationHost } from '../../../renderer/src/features/elicitation/ElicitationHost';
import { loadSchemaForm } from '../../../renderer/src/ui/schema-form';
import { decodePunycode, reviewUrl, splitHost } from '../../../renderer/src/features/elicitation/url-safety';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { dangerousAttributes } from './dom-helpers';
import { WithHost } from './with-host';

const fetchSpy = vi.fn();
beforeEach(() => {
  fetchSpy.mockReset();
  vi.stubGlobal('fetch', fetchSpy);
});
// The form's code loads on first use: loaded once here so every dialog below renders its fields at once.
beforeAll(() => loadSchemaForm());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', title: 'Email', format: 'email' },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    colour: { type: 'string', title: 'Colour', oneOf: [{ const: '#f00', title: 'Red' }, { const: '#00f', title: 'Blue' }] },
    subscribe: { type: 'boolean', title: 'Subscribe', default: true },
  },
  required: ['name', 'age'],
};

function formRequest(extra: Partial<PendingElicitation> = {}): PendingElicitation {
  return {
    id: 'e1',
    server: 'feature',
    mode: 'form',
    message: 'Who are you? <img src=x onerror="window.__pwned=1">',
    requestedSchema: schema,
    deadline: Date.now() + 60_000,
    ...extra,
  };
}

describe('ElicitationDialog (form)', () => {
  it('says which server asks and why, as text, with a field per property and defaults filled in', () => {
    render(<ElicitationDialog request={formRequest({ during: '“ask_name” in the chat' })} waiting={0} onAnswer={() => undefined} />);
    const d = within(screen.getByRole('dialog'));
    expect(d.getByRole('heading', { name: '“feature” asks for your input' })).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('Asked by the server feature while running “ask_name” in the chat');
    expect(d.getByText('Who are you? <img src=x onerror="window.__pwned=1">')).toBeTruthy();
    expect(dangerousAttributes(screen.getByRole('dialog'))).toEqual([]);
    expect(d.getByRole('textbox', { name: /Name/ })).toBeTruthy();
    expect(d.getByRole('textbox', { name: /Email/ })).toBeTruthy();
    expect(d.getByRole('radio', { name: 'Red' })).toBeTruthy();
    expect((d.getByRole('checkbox', { name: /Subscribe/ }) as HTMLInputElement).checked).toBe(true);
    // The first field has the focus.
    expect(document.activeElement).toBe(d.getByRole('textbox', { name: /Name/ }));
    expect(d.queryByRole('note')).toBeNull();
  });

  it('validates inline and sends only a valid answer', () => {
    const onAnswer = vi.fn();
    render(<ElicitationDialog request={formRequest()} waiting={0} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(onAnswer).not.toHaveBeenCalled();
    const name = screen.getByRole('textbox', { name: /Name/ });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText('Required.').length).toBeGreaterThanOrEqual(2);

    fireEvent.change(name, { target: { value: 'A' } });
    expect(screen.getByText('At least 2 characters (now 1).')).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Ada' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: /Age/ }), { target: { value: '200' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Email/ }), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(onAnswer).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('spinbutton', { name: /Age/ }), { target: { value: '36' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Email/ }), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Blue' }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(onAnswer).toHaveBeenCalledWith('accept', { name: 'Ada', email: 'ada@example.com', age: 36, colour: '#00f', subscribe: true });
  });

  it.each([
    ['Decline', 'decline'],
    ['Cancel', 'cancel'],
    ['Close (cancel)', 'cancel'],
  ])('%s answers %s without content', (button, action) => {
    const onAnswer = vi.fn();
    render(<ElicitationDialog request={formRequest()} waiting={0} onAnswer={onAnswer} />);
    fireEvent.click(screen.getByRole('button', { name: button }));
    expect(onAnswer.mock.calls).toEqual([[action]]);
  });

  it.each([
    ['a form', {}],
    ['a web page', { mode: 'url' as const, url: 'https://example.com/sign-in' }],
  ])('explains Decline and Cancel for %s', (_what, extra) => {
    render(<ElicitationDialog request={formRequest(extra)} waiting={0} onAnswer={() => undefined} />);
    const choices = screen.getByRole('dialog').querySelector('.elicitation__choices')!;
    expect(choices.textContent).toBe('Decline tells the server “no”: you refuse what it asks. Cancel dismisses the question without answering either way.');
    expect(screen.getByRole('button', { name: 'Decline' }).getAttribute('title')).toBe('Tell the server no');
    expect(screen.getByRole('button', { name: 'Cancel' }).getAttribute('title')).toBe('Dismiss without answering');
  });

  it('cancels on Escape and at the deadline', () => {
    const onAnswer = vi.fn();
    render(<ElicitationDialog request={formRequest()} waiting={0} onAnswer={onAnswer} />);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onAnswer.mock.calls).toEqual([['cancel']]);
    cleanup();
    const late = vi.fn();
    render(<ElicitationDialog request={formRequest({ deadline: Date.now() - 1 })} waiting={0} onAnswer={late} />);
    expect(late).toHaveBeenCalledWith('cancel');
  });

  it('warns when a field looks like it asks for a password or token', () => {
    const sneaky = { type: 'object', properties: { user: { type: 'string' }, api_token: { type: 'string', title: 'API token' } } };
    render(<ElicitationDialog request={formRequest({ requestedSchema: sneaky })} waiting={0} onAnswer={() => undefined} />);
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('“API token” looks like it asks for a password, token or key');
    expect(note.textContent).toContain('Servers must not ask for secrets in a form');
  });
});

describe('ElicitationDialog (URL mode)', () => {
  const urlRequest = (url: string): PendingElicitation => ({ id: 'u1', server: 'pay', mode: 'url', message: 'Finish the payment.', url, deadline: Date.now() + 60_000 });

  it('shows the full URL with the real site highlighted and opens it only on an explicit click, without fetching it', () => {
    const open = vi.fn();
    const onAnswer = vi.fn();
    render(<ElicitationDialog request={urlRequest('https://checkout.pay.example.co.uk:8443/session?id=42#x')} waiting={0} onAnswer={onAnswer} open={open} />);
    const full = screen.getByLabelText('The page: https://checkout.pay.example.co.uk:8443/session?id=42#x');
    expect(full.querySelector('mark')?.textContent).toBe('example.co.uk');
    expect(full.textContent).toBe('https://checkout.pay.example.co.uk:8443/session?id=42#x');
    // Decline is focused; nothing opened or fetched yet.
    expect(document.activeElement?.textContent).toBe('Decline');
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Open in browser' }));
    expect(open).toHaveBeenCalledWith('https://checkout.pay.example.co.uk:8443/session?id=42#x', '_blank', 'noopener,noreferrer');
    expect(onAnswer).toHaveBeenCalledWith('accept');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('warns about a look-alike international domain', () => {
    render(<ElicitationDialog request={urlRequest('https://аррӏе.com/login')} waiting={0} onAnswer={() => undefined} open={() => undefined} />);
    const warnings = screen.getByRole('list', { name: 'Warnings about this address' }).textContent!;
    expect(warnings).toContain('it reads "аррӏе.com" but is really xn--80ak6aa92e.com');
    expect(screen.getByRole('dialog').querySelector('mark')?.textContent).toBe('xn--80ak6aa92e.com');
  });

  it('refuses to open a URL that hides its site behind a user name, or is not http(s)', () => {
    const open = vi.fn();
    render(<ElicitationDialog request={urlRequest('https://accounts.google.com@evil.example/login')} waiting={0} onAnswer={() => undefined} open={open} />);
    expect(screen.getByRole('alert').textContent).toContain('the site is evil.example');
    expect((screen.getByRole('button', { name: 'Open in browser' }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    render(<ElicitationDialog request={urlRequest('javascript:alert(1)')} waiting={0} onAnswer={() => undefined} open={open} />);
    expect((screen.getByRole('button', { name: 'Open in browser' }) as HTMLButtonElement).disabled).toBe(true);
    expect(open).not.toHaveBeenCalled();
  });
});

describe('url-safety', () => {
  it('decodes punycode labels', () => {
    expect(decodePunycode('80ak6aa92e')).toBe('аррӏе');
    expect(decodePunycode('mnchen-3ya')).toBe('münchen');
    expect(decodePunycode('pple-43d')).toBe('аpple');
    // Malformed: shown as written, never a guess.
    expect(decodePunycode('a-\u00e9')).toBeUndefined();
  });

  it('finds the registrable domain', () => {
    expect(splitHost('a.b.example.com')).toEqual({ subdomain: 'a.b.', domain: 'example.com' });
    expect(splitHost('shop.example.co.uk')).toEqual({ subdomain: 'shop.', domain: 'example.co.uk' });
    expect(splitHost('localhost')).toEqual({ subdomain: '', domain: 'localhost' });
    expect(splitHost('10.0.0.1')).toEqual({ subdomain: '', domain: '10.0.0.1' });
  });

  it('flags mixed scripts, plain http and bare IPs', () => {
    expect(reviewUrl('https://xn--pple-43d.com/').warnings.join(' ')).toContain('mixes Latin and Cyrillic letters');
    expect(reviewUrl('http://example.com/')).toMatchObject({ openable: false, problem: expect.stringContaining('plain http') });
    expect(reviewUrl('https://192.168.1.10/').warnings.join(' ')).toContain('bare IP address');
    expect(reviewUrl('https://example.com/').warnings).toEqual([]);
    expect(reviewUrl('mailto:a@example.com').openable).toBe(false);
    expect(reviewUrl('mailto:a@example.com', ['mailto:']).openable).toBe(true);
  });
});

describe('ElicitationHost (app-wide)', () => {
  it('answers every question with elicitation.respond; one from a chat call says which call', async () => {
    const host = new ContractTransport({ 'elicitation.respond': () => ({ accepted: true }) });
    render(
      <WithHost transport={host}>
        <ElicitationHost />
      </WithHost>,
    );
    await act(async () => {
      host.emit('chat.toolCall', { conversationId: 'c', turnId: 't', call: { id: 'call-1', name: 'feature__ask_name', server: 'feature', tool: 'ask_name', arguments: {}, status: 'running', startedAt: 1 } });
      host.emit('elicitation.request', { id: 'g1', server: 'notes', mode: 'form', message: 'A note?', requestedSchema: { type: 'object', properties: { title: { type: 'string' } } }, deadline: Date.now() + 60_000 });
      host.emit('elicitation.request', { id: 'c1', conversationId: 'c', turnId: 't', toolCallId: 'call-1', server: 'feature', mode: 'form', message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] }, deadline: Date.now() + 60_000 });
    });
    expect(screen.getByRole('heading', { name: '“notes” asks for your input' })).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).not.toContain('while running');
    expect(screen.getByText('1 more question waiting after this one.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(host.sent('elicitation.respond')).toEqual([{ id: 'g1', action: 'decline' }]);

    expect(await screen.findByRole('heading', { name: '“feature” asks for your input' })).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('while running “ask_name” in the chat');
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Ada' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(host.sent('elicitation.respond')).toEqual([
      { id: 'g1', action: 'decline' },
      { id: 'c1', action: 'accept', content: { name: 'Ada' } },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the dialog open with what is wrong when the Host refuses an answer (nothing was sent to the server)', async () => {
    const host = new ContractTransport({
      'elicitation.respond': ({ content }) =>
        content && typeof content.integer === 'number' && content.integer > 100
          ? failure('BAD_REQUEST', 'The answer does not fit what the server asked for: "integer" must be at most 100 (got 1000).')
          : { accepted: true },
    });
    render(
      <WithHost transport={host}>
        <ElicitationHost />
      </WithHost>,
    );
    // The form itself knows no maximum here (a schema the dialog cannot fully check): the Host does.
    await act(async () =>
      host.emit('elicitation.request', { id: 'q', server: 'everything', mode: 'form', message: 'Numbers', requestedSchema: { type: 'object', properties: { integer: { type: 'integer', title: 'Integer' } } }, deadline: Date.now() + 60_000 }),
    );
    fireEvent.change(screen.getByRole('spinbutton', { name: /Integer/ }), { target: { value: '1000' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Not sent.');
    expect(alert.textContent).toContain('"integer" must be at most 100 (got 1000)');
    expect(screen.getByRole('heading', { name: '“everything” asks for your input' })).toBeTruthy();
    fireEvent.change(screen.getByRole('spinbutton', { name: /Integer/ }), { target: { value: '7' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(host.sent('elicitation.respond')).toEqual([
      { id: 'q', action: 'accept', content: { integer: 1000 } },
      { id: 'q', action: 'accept', content: { integer: 7 } },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows questions still waiting when the window (re)connects', async () => {
    const host = new ContractTransport({
      'elicitation.pending': () => [
        { id: 'g', server: 'notes', mode: 'form', message: 'Title?', deadline: Date.now() + 60_000 },
        { id: 'c', conversationId: 'c1', turnId: 't1', server: 'feature', mode: 'url', message: 'Pay here', url: 'https://pay.example.com/x', deadline: Date.now() + 60_000 },
        { id: 'old', conversationId: 'c1', turnId: 't1', server: 'feature', mode: 'form', message: 'expired', deadline: Date.now() - 1 },
      ],
      'elicitation.respond': () => ({ accepted: true }),
    });
    render(
      <WithHost transport={host}>
        <ElicitationHost />
      </WithHost>,
    );
    expect(await screen.findByRole('heading', { name: '“notes” asks for your input' })).toBeTruthy();
    expect(screen.getByText('1 more question waiting after this one.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: '“feature” asks you to open a web page' })).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('while running a tool for the chat');
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(host.sent('elicitation.respond')).toEqual([
      { id: 'g', action: 'cancel' },
      { id: 'c', action: 'decline' },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('drops a question the Host ended (elicitation.resolved), whoever it belonged to', async () => {
    const host = new ContractTransport();
    render(
      <WithHost transport={host}>
        <ElicitationHost />
      </WithHost>,
    );
    await act(async () => host.emit('elicitation.request', { id: 'g', server: 's', mode: 'form', message: 'g', deadline: Date.now() + 60_000 }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await act(async () => host.emit('elicitation.resolved', { id: 'g', action: 'cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => host.emit('elicitation.request', { id: 'a', conversationId: 'c', turnId: 't', toolCallId: 'k', server: 's', mode: 'form', message: 'a', deadline: Date.now() + 60_000 }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await act(async () => host.emit('elicitation.resolved', { id: 'a', action: 'cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Nothing was answered for them: the only call was the startup fetch of pending questions.
    expect(host.calls.map((c) => c.command)).toEqual(['elicitation.pending']);
  });
});
