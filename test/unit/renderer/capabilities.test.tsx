// @vitest-environment happy-dom
/**
 * What servers may ask of Harbor, in the renderer: the sampling review (the request, edited or
 * denied, then the model's answer, edited or kept back), a server's log view (level filter,
 * search, the level it should send, its stderr), subscribing from the Resources view (an update
 * is read again and shown as changed), the Activity entries for log messages and sampling, and
 * the server editor's roots and sampling fields.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SamplingRequestData, ServerLogEntry } from '../../../preload/contract';
import { ServerEvents } from '../../../renderer/src/features/activity/ServerEvents';
import { ServerLogs } from '../../../renderer/src/features/logs/ServerLogs';
import { ResourcesPage } from '../../../renderer/src/features/resources/ResourcesPage';
import { SamplingHost } from '../../../renderer/src/features/sampling/SamplingHost';
import { ServerForm } from '../../../renderer/src/features/servers/ServerForm';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { dangerousAttributes } from './dom-helpers';
import { WithHost } from './with-host';

afterEach(cleanup);

function samplingRequest(extra: Partial<SamplingRequestData> = {}): SamplingRequestData {
  return {
    id: 's1',
    server: 'everything',
    stage: 'request',
    deadline: Date.now() + 60_000,
    systemPrompt: 'You are a helpful test server.',
    messages: [{ role: 'user', text: 'What is <b>2+2</b>?', attachments: ['image (image/png, 6 bytes)'] }],
    maxTokens: 100,
    temperature: 0.7,
    modelHints: ['claude'],
    model: 'openai-compatible:scripted',
    during: 'calling tool trigger-sampling-request',
    ...extra,
  };
}

describe('the sampling review', () => {
  it('shows who asks and what, lets the person edit the request, and approves with only what changed', async () => {
    const host = new ContractTransport({ 'sampling.pending': () => [], 'sampling.respond': () => ({ accepted: true }) });
    render(
      <WithHost transport={host}>
        <SamplingHost />
      </WithHost>,
    );
    await act(async () => host.emit('sampling.request', samplingRequest()));
    const dialog = within(screen.getByRole('dialog'));
    expect(dialog.getByRole('heading', { name: '“everything” wants to ask the model' })).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('The server everything (while calling tool trigger-sampling-request) asks Harbor to run the model openai-compatible:scripted');
    expect((dialog.getByRole('textbox', { name: 'System prompt' }) as HTMLTextAreaElement).value).toBe('You are a helpful test server.');
    expect((dialog.getByRole('textbox', { name: 'Message 1 (user)' }) as HTMLTextAreaElement).value).toBe('What is <b>2+2</b>?');
    expect(screen.getByRole('dialog').textContent).toContain('Also sends: image (image/png, 6 bytes)');
    expect(screen.getByRole('dialog').textContent).toContain('Models the server prefers');
    expect(dangerousAttributes(screen.getByRole('dialog'))).toEqual([]);

    fireEvent.change(dialog.getByRole('textbox', { name: 'Message 1 (user)' }), { target: { value: 'What is 3+3?' } });
    fireEvent.change(dialog.getByRole('textbox', { name: 'Longest answer, in tokens' }), { target: { value: '500' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Approve and run' }));
    expect(host.sent('sampling.respond')).toEqual([]);
    expect(screen.getByText("A whole number from 1 to 100 (the server's limit).")).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: 'Longest answer, in tokens' }), { target: { value: '20' } });
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Approve and run' })));
    expect(host.sent('sampling.respond')).toEqual([{ id: 's1', action: 'approve', messages: ['What is 3+3?'], maxTokens: 20 }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the model\'s answer before it goes back: send it edited, and a refused edit keeps the dialog open', async () => {
    let refuse = true;
    const host = new ContractTransport({
      'sampling.pending': () => [samplingRequest({ id: 's2', stage: 'response', response: { text: 'Four.', model: 'openai-compatible:scripted', stopReason: 'endTurn' } })],
      'sampling.respond': () => (refuse ? failure('BAD_REQUEST', 'The edit cannot be used: something.') : { accepted: true }),
    });
    render(
      <WithHost transport={host}>
        <SamplingHost />
      </WithHost>,
    );
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByRole('heading', { name: "Send the model's answer to “everything”?" })).toBeTruthy();
    const answer = dialog.getByRole('textbox', { name: "The model's answer" }) as HTMLTextAreaElement;
    expect(answer.value).toBe('Four.');
    fireEvent.change(answer, { target: { value: 'Four, edited.' } });
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Send answer' })));
    expect(screen.getByRole('alert').textContent).toContain('Not taken. The edit cannot be used: something.');
    refuse = false;
    await act(async () => fireEvent.click(dialog.getByRole('button', { name: 'Send answer' })));
    expect(host.sent('sampling.respond')).toEqual([
      { id: 's2', action: 'approve', text: 'Four, edited.' },
      { id: 's2', action: 'approve', text: 'Four, edited.' },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape denies; a review the Host ended elsewhere disappears', async () => {
    const host = new ContractTransport({ 'sampling.pending': () => [], 'sampling.respond': () => ({ accepted: true }) });
    render(
      <WithHost transport={host}>
        <SamplingHost />
      </WithHost>,
    );
    await act(async () => host.emit('sampling.request', samplingRequest({ id: 'a' })));
    await act(async () => host.emit('sampling.request', samplingRequest({ id: 'b' })));
    expect(screen.getByText('1 more request waiting after this one.')).toBeTruthy();
    await act(async () => fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' }));
    expect(host.sent('sampling.respond')).toEqual([{ id: 'a', action: 'deny' }]);
    expect(screen.getByRole('dialog')).toBeTruthy();
    await act(async () => host.emit('sampling.resolved', { id: 'b', action: 'deny' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a server\'s log view', () => {
  const entry = (seq: number, level: ServerLogEntry['level'], data: unknown, logger?: string): ServerLogEntry => ({ seq, at: 1_700_000_000_000 + seq, server: 'everything', level, data, ...(logger ? { logger } : {}) });

  it('lists log messages live, filters by level and text, sets the level the server sends, and shows stderr', async () => {
    const host = new ContractTransport({
      'logs.list': () => ({ server: 'everything', entries: [entry(1, 'debug', 'Debug-level message'), entry(2, 'error', { code: 7, text: 'disk full' }, 'store')], supported: true, era: 'legacy', stderrTail: 'started on stdio\n' }),
      'logs.setLevel': ({ level }) => ({ server: 'everything', entries: [], ...(level ? { level } : {}), supported: true, era: 'legacy', stderrTail: '' }),
    });
    render(
      <WithHost transport={host}>
        <ServerLogs server="everything" />
      </WithHost>,
    );
    const list = await screen.findByRole('list', { name: 'Log messages of everything' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('debugDebug-level message'),
      expect.stringContaining('errorstore{"code":7,"text":"disk full"}'),
    ]);
    await act(async () => host.emit('servers.log', entry(3, 'warning', '<img src=x onerror=alert(1)> warned')));
    await act(async () => host.emit('servers.log', { ...entry(4, 'info', 'another server'), server: 'other' }));
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(list.querySelector('img')).toBeNull();

    fireEvent.change(screen.getByRole('combobox', { name: 'Show' }), { target: { value: 'warning' } });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([expect.stringContaining('disk full'), expect.stringContaining('warned')]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'DISK' } });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'nothing like this' } });
    expect(screen.getByText('No log message matches.')).toBeTruthy();

    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: 'Level the server sends' }), { target: { value: 'error' } }));
    expect(host.sent('logs.setLevel')).toEqual([{ server: 'everything', level: 'error' }]);
    expect((screen.getByRole('combobox', { name: 'Level the server sends' }) as HTMLSelectElement).value).toBe('error');
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: 'Level the server sends' }), { target: { value: '' } }));
    expect(host.sent('logs.setLevel').at(-1)).toEqual({ server: 'everything', level: null });
    expect(screen.getByText('Its stderr (last lines)')).toBeTruthy();
  });
});

describe('subscriptions in the Resources view', () => {
  it('subscribes to a resource; an update of the open one reads it again and says it changed', async () => {
    let text = 'version 1';
    const uris = new Set<string>();
    const view = () => ({ server: 'everything', supported: true, uris: [...uris] });
    const host = new ContractTransport({
      'servers.list': () => [serverSummary('everything', { counts: { resources: 1 } })],
      'catalog.get': () => ({ server: 'everything', tools: [], resources: [{ uri: 'demo://doc', name: 'doc', title: 'The document' }], resourceTemplates: [], prompts: [] }),
      'resources.subscriptions': view,
      'resources.subscribe': ({ uri }) => (uris.add(uri), view()),
      'resources.unsubscribe': ({ uri }) => (uris.delete(uri), view()),
      'resources.read': ({ uri }) => ({ contents: [{ uri, mimeType: 'text/plain', text }] }),
    });
    render(
      <WithHost transport={host}>
        <ResourcesPage />
      </WithHost>,
    );
    const subscribe = await screen.findByRole('button', { name: 'Subscribe to The document' });
    expect(subscribe.getAttribute('aria-pressed')).toBe('false');
    await act(async () => fireEvent.click(subscribe));
    expect(host.sent('resources.subscribe')).toEqual([{ server: 'everything', uri: 'demo://doc' }]);
    expect(screen.getByRole('button', { name: 'Unsubscribe from The document' }).getAttribute('aria-pressed')).toBe('true');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Read The document' })));
    await screen.findByText('version 1');
    text = 'version 2';
    await act(async () => host.emit('servers.changed', { name: 'everything', reason: 'resourceUpdated', uri: 'demo://doc' }));
    await screen.findByText('version 2');
    expect(host.sent('resources.read')).toHaveLength(2);
    expect(screen.getByRole('status').textContent).toMatch(/Changed on the server at .*: this is the new content \(you are subscribed\)/);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe from The document' })));
    expect(host.sent('resources.unsubscribe')).toEqual([{ server: 'everything', uri: 'demo://doc' }]);
    // Not subscribed any more: an update only says so and offers to read again.
    await act(async () => host.emit('servers.changed', { name: 'everything', reason: 'resourceUpdated', uri: 'demo://doc' }));
    await screen.findByRole('button', { name: 'Read again' });
    expect(host.sent('resources.read')).toHaveLength(2);
  });
});

describe('Activity', () => {
  it('lists a server\'s log messages and how its sampling requests ended', async () => {
    const host = new ContractTransport();
    render(
      <WithHost transport={host}>
        <ServerEvents />
      </WithHost>,
    );
    await act(async () => host.emit('servers.log', { seq: 1, at: 1, server: 'everything', level: 'warning', logger: 'sim', data: 'Warning-level message' }));
    await act(async () =>
      host.emit('sampling.exchange', { server: 'everything', at: 2, outcome: 'sent', model: 'openai-compatible:scripted', maxTokens: 100, answerChars: 5, stopReason: 'endTurn' }),
    );
    await act(async () => host.emit('sampling.exchange', { server: 'everything', at: 3, outcome: 'denied', model: 'openai-compatible:scripted', maxTokens: 100, reason: 'The person denied the sampling request.' }));
    const items = within(screen.getByRole('list', { name: 'Server events' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toContain('everything asked the model openai-compatible:scripted; denied: The person denied the sampling request.');
    expect(items[1]).toContain('everything asked the model openai-compatible:scripted (at most 100 tokens); its answer (5 characters) was sent back');
    expect(items[2]).toContain('everything logged (warning, sim): Warning-level message');
  });
});

describe('the server editor', () => {
  it('edits roots (typed in a browser, picked in the desktop app) and the sampling policy', async () => {
    const host = new ContractTransport({
      'app.info': () => ({ name: 'Harbor', version: '0', mode: 'electron', configPath: '/c', dataDir: '/d', platform: 'linux', versions: { node: '24' }, configProblems: [] }),
      'app.pickFolder': () => ({ supported: true, path: '/home/me/picked' }),
      'servers.update': ({ name }) => serverSummary(name),
    });
    render(
      <WithHost transport={host}>
        <ServerForm editing={{ name: 'fs', config: { command: 'npx', roots: ['~/projects/x'], logLevel: 'info' } }} takenNames={new Set(['fs'])} secretNames={new Set()} onDone={() => undefined} onCancel={() => undefined} />
      </WithHost>,
    );
    expect((screen.getByRole('textbox', { name: 'Root 1' }) as HTMLInputElement).value).toBe('~/projects/x');
    await waitFor(() => expect(host.sent('app.info')).toHaveLength(1));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Choose a folder…' })));
    expect((screen.getByRole('textbox', { name: 'Root 2' }) as HTMLInputElement).value).toBe('/home/me/picked');
    fireEvent.click(screen.getByRole('button', { name: 'Add a path' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Root 3' }), { target: { value: 'file:///srv/data' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove root 1' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'When the server asks the model (sampling)' }), { target: { value: 'deny' } });
    expect(screen.getByText('The server is not offered sampling at all.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(host.sent('servers.update')).toEqual([{ name: 'fs', config: { command: 'npx', roots: ['/home/me/picked', 'file:///srv/data'], logLevel: 'info', sampling: 'deny' } }]);
  });

  it('in a browser there is no folder picker, only typed paths', async () => {
    const host = new ContractTransport({
      'app.info': () => ({ name: 'Harbor', version: '0', mode: 'web', configPath: '/c', dataDir: '/d', platform: 'linux', versions: { node: '24' }, configProblems: [] }),
    });
    render(
      <WithHost transport={host}>
        <ServerForm takenNames={new Set()} secretNames={new Set()} onDone={() => undefined} onCancel={() => undefined} />
      </WithHost>,
    );
    await waitFor(() => expect(host.sent('app.info')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Choose a folder…' })).toBeNull();
    expect(screen.getByText('None: the server is not offered roots.')).toBeTruthy();
  });
});
