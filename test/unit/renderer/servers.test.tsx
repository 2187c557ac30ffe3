// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorCode, ImportReportData, RegistryView, ServerSummary } from '../../../preload/contract';
import { ArgsEditor } from '../../../renderer/src/features/servers/ArgsEditor';
import { hintFor } from '../../../renderer/src/features/servers/error-hints';
import { ImportPreview } from '../../../renderer/src/features/servers/ImportPreview';
import { KeyValueEditor } from '../../../renderer/src/features/servers/KeyValueEditor';
import { secretNameFor } from '../../../preload/contract';
import { ServerForm } from '../../../renderer/src/features/servers/ServerForm';
import { ServerDetail } from '../../../renderer/src/features/servers/ServerDetail';
import { ServerList } from '../../../renderer/src/features/servers/ServerList';
import { ServersPage } from '../../../renderer/src/features/servers/ServersPage';
import { splitCommandLine } from '../../../renderer/src/features/servers/command-line';
import { readPastedServers } from '../../../renderer/src/features/servers/pasted-servers';
import {
  configFromForm,
  formFromConfig,
  validateServerForm,
  type ArgRow,
  type KeyValueRow,
} from '../../../renderer/src/features/servers/server-form-model';
import { stateLabel } from '../../../renderer/src/features/servers/StateBadge';
import { useState } from 'react';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

const notes: ServerSummary = serverSummary('notes', { counts: { tools: 3, resources: 1, prompts: 1 } });

const registry = (servers: RegistryView['servers']): RegistryView => ({ path: '/x/harbor.json', text: '{}', servers, problems: [] });

/** A Host that knows a registry and servers, answers the Servers page's commands and records the rest. */
function hostWith(servers: ServerSummary[], configs: RegistryView['servers'] = servers.map((s) => ({ name: s.name, config: { command: 'node', args: ['server.js'] } }))) {
  return new ContractTransport({
    'servers.list': () => servers,
    'registry.get': () => registry(configs),
    'secrets.list': () => ({ names: ['notes-api_key'], available: true }),
    'chat.context': () => ({ contextWindow: 128000, toolTokens: 0, instructionTokens: 0, toolCount: 0, searchThresholdTokens: 6400, toolSearch: 'auto', mode: 'direct', servers: [], notConnected: [] }),
    'secrets.set': () => ({ set: true }),
    'servers.add': (p) => ({ ...notes, name: String(p.name), state: { kind: 'stopped' } }),
    'servers.update': (p) => ({ ...notes, name: String(p.newName ?? p.name) }),
    'servers.start': () => notes,
    'registry.check': () => ({ problems: [] }),
  });
}

describe('ServerList', () => {
  it('one compact row per server: state, era, tools and cost; a search narrows it', () => {
    const broken: ServerSummary = { ...notes, name: 'broken', target: 'npx -y @scope/server', state: { kind: 'error', code: 'SPAWN_FAILED', message: 'Harbor could not find "npx" on PATH (/usr/bin).', stderrTail: '' } };
    const off: ServerSummary = { ...notes, name: 'off', enabled: false, state: { kind: 'stopped' } };
    const ready: ServerSummary = { ...notes, era: 'legacy' };
    const { rerender } = render(<ServerList servers={[ready, broken, off]} query="" selected="broken" costs={new Map([['notes', { toolTokens: 1200, instructionTokens: 34 }]])} />);
    const row = within(screen.getByRole('link', { name: 'notes' }));
    expect(row.getByText('Ready')).toBeTruthy();
    // The protocol is named by its version, when known, never by the era's word (#31 item 12).
    expect(screen.getByRole('link', { name: 'notes' }).textContent).toContain('3 tools · ~1.2k tokens');
    expect(screen.getByRole('link', { name: 'notes' }).textContent).not.toContain('legacy');
    expect(screen.getByRole('link', { name: 'notes' }).getAttribute('href')).toBe('#/servers/notes');
    expect(screen.getByRole('link', { name: 'broken' }).getAttribute('aria-current')).toBe('true');
    expect(within(screen.getByRole('link', { name: 'broken' })).getByText('Error')).toBeTruthy();
    // The error's headline, not the Host's long message, says at a glance what is wrong.
    expect(screen.getByRole('link', { name: 'broken' }).textContent).toContain('“npx” was not found');
    expect(within(screen.getByRole('link', { name: 'off' })).getByText('Disabled')).toBeTruthy();

    rerender(<ServerList servers={[ready, broken, off]} query="scope" selected={undefined} />);
    expect(screen.getAllByRole('link').map((l) => l.querySelector('.server-row__name')?.textContent)).toEqual(['broken']);
    expect(screen.getByRole('link', { name: 'broken' })).toBeTruthy();
    rerender(<ServerList servers={[ready, broken, off]} query="nothing-like-it" selected={undefined} />);
    expect(screen.getByText('No server matches “nothing-like-it”.')).toBeTruthy();
  });
});

describe('ServerDetail', () => {
  it('says an error once: a headline, the fix first, the Host\'s message, output and code under Details', () => {
    const broken: ServerSummary = {
      ...notes,
      name: 'broken',
      target: 'npx -y @scope/server',
      state: { kind: 'error', code: 'SPAWN_FAILED', message: 'Harbor could not find "npx" on PATH (/usr/bin:/bin).', stderrTail: 'boom on stderr' },
    };
    render(
      <WithHost transport={hostWith([broken])}>
        <ServerDetail server={broken} config={{ command: 'npx', args: ['-y', '@scope/server'] }} onEdit={() => undefined} />
      </WithHost>,
    );
    const alert = screen.getByRole('alert');
    const visible = [...alert.querySelectorAll('.error-message__title, .error-message__fix')].map((el) => el.textContent).join(' ');
    expect(visible).toContain('“npx” was not found');
    expect(visible).toMatch(/Run "which npx" in a terminal/);
    expect(visible).not.toContain('SPAWN_FAILED');
    expect(visible).not.toContain('on PATH');
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('Harbor could not find "npx" on PATH (/usr/bin:/bin).')).toBeTruthy();
    expect(within(details).getByText('boom on stderr')).toBeTruthy();
    expect(within(details).getByText('SPAWN_FAILED')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Start broken' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop broken' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit broken' })).toBeTruthy();
  });

  it('shows the configuration by names (secrets only as "keychain") and what the server declared, grouped', () => {
    const ready: ServerSummary = { ...notes, protocolVersion: '2026-07-28', era: 'modern', serverInfo: { name: 'notes-server', version: '2.1.0' }, capabilities: ['tools', 'tools.listChanged', 'resources', 'resources.subscribe', 'logging'] };
    render(
      <WithHost transport={hostWith([ready])}>
        <ServerDetail server={ready} config={{ command: 'node', env: { API_KEY: '${secret:notes-api_key}', MODE: 'x-secret-looking-value' }, timeoutMs: 1500 }} cost={{ toolTokens: 500, instructionTokens: 20 }} />
      </WithHost>,
    );
    const detail = within(screen.getByRole('article', { name: 'notes' }));
    expect(detail.getByText('Ready')).toBeTruthy();
    expect(detail.getByText('API_KEY')).toBeTruthy();
    expect(detail.getByText('(keychain)')).toBeTruthy();
    expect(screen.getByRole('article').textContent).not.toContain('x-secret-looking-value');
    expect(detail.getByText('1.5 s')).toBeTruthy();
    expect(detail.getByText('2026-07-28 (stateless)')).toBeTruthy();
    expect(detail.getByText('3 tools, 1 resource, 1 prompt')).toBeTruthy();
    expect(detail.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['tools (listChanged)', 'resources (subscribe)', 'logging']);
    expect(detail.getByText(/~520 tokens/)).toBeTruthy();
    expect(detail.getByRole('switch', { name: 'Trust notes' })).toBeTruthy();
    expect(detail.getByRole('button', { name: 'Restart notes' })).toBeTruthy();
  });

  it('offers "Allow launch" in the error when a launch was not approved, and sends servers.approveLaunch', async () => {
    const refused: ServerSummary = { ...notes, state: { kind: 'error', code: 'CONSENT_DENIED', message: 'You did not allow launching "notes".', stderrTail: '' } };
    const host = hostWith([refused]);
    host.handlers['servers.approveLaunch'] = () => notes;
    render(
      <WithHost transport={host}>
        <ServerDetail server={refused} />
      </WithHost>,
    );
    // Denied says so (the Host's words are the headline), and how to allow it: not "Waiting for your permission".
    const alert = within(screen.getByRole('alert'));
    expect(alert.getByText('You did not allow launching "notes".')).toBeTruthy();
    expect(alert.getByText('Start it to be asked again, or allow the launch if you trust this command.')).toBeTruthy();
    expect(alert.queryByText(/Waiting for your permission/)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Allow launch of notes' })));
    expect(host.sent('servers.approveLaunch')).toEqual([{ name: 'notes' }]);
  });

  it('a denied server keeps saying how it failed before the question (issue #31, item 10)', () => {
    const denied: ServerSummary = {
      ...notes,
      state: { kind: 'error', code: 'CONSENT_DENIED', message: 'You did not allow launching "notes".', stderrTail: '' },
      lastError: { code: 'CONNECTION_CLOSED', message: '"notes" closed the connection while connecting (exited with code 1).', stderrTail: 'fatal: missing config FOO', at: 1 },
    };
    render(
      <WithHost transport={hostWith([denied])}>
        <ServerDetail server={denied} />
      </WithHost>,
    );
    const alert = within(screen.getByRole('alert'));
    expect(alert.getByText('You did not allow launching "notes".')).toBeTruthy();
    expect(alert.getByText('Before this it failed: "notes" closed the connection while connecting (exited with code 1).')).toBeTruthy();
    expect(alert.getByText('fatal: missing config FOO')).toBeTruthy();
  });

  it('a remote server that was not approved offers "Allow connection", saying it is about the address', async () => {
    const remote: ServerSummary = {
      ...notes,
      name: 'remote',
      transport: 'http',
      target: 'https://mcp.example.com/mcp',
      state: { kind: 'error', code: 'CONSENT_REQUIRED', message: 'Connecting to "remote" sends requests to https://mcp.example.com/mcp.', stderrTail: '' },
    };
    const host = hostWith([remote]);
    host.handlers['servers.approveLaunch'] = () => ({ ...remote, state: { kind: 'ready' } });
    host.handlers['auth.status'] = () => ({ usesSignIn: false, signedIn: false });
    render(
      <WithHost transport={host}>
        <ServerDetail server={remote} />
      </WithHost>,
    );
    expect(screen.getByText(/Harbor has not been allowed to reach this address/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow launch of remote' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Allow connection of remote' })));
    expect(host.sent('servers.approveLaunch')).toEqual([{ name: 'remote' }]);
  });

  it('a list whose refresh failed is marked on the card with the server\'s message and when the shown list is from, and Retry fetches it again', async () => {
    const since = new Date(2026, 11, 7, 12, 4).getTime();
    const stale: ServerSummary = { ...notes, stale: { lists: ['tools'], message: 'catalog store is unavailable', since, failedAt: since + 60_000, nextRetryAt: since + 62_000 } };
    const host = hostWith([stale]);
    host.handlers['servers.retryLists'] = () => notes;
    render(
      <WithHost transport={host}>
        <ServerDetail server={stale} config={{ command: 'node' }} />
      </WithHost>,
    );
    const notice = screen.getByRole('status');
    expect(notice.textContent).toContain('tools refresh failed: catalog store is unavailable — showing the list from 12:04');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry fetching the tools of notes' })));
    expect(host.sent('servers.retryLists')).toEqual([{ name: 'notes' }]);
  });

  it('no mark on a server whose lists are fresh', () => {
    render(
      <WithHost transport={hostWith([notes])}>
        <ServerDetail server={notes} config={{ command: 'node' }} />
      </WithHost>,
    );
    expect(screen.queryByText(/refresh failed/)).toBeNull();
  });

  it('removes a server only after confirming', async () => {
    const host = hostWith([notes]);
    host.handlers['servers.remove'] = () => ({ removed: true });
    render(
      <WithHost transport={host}>
        <ServerDetail server={notes} config={{ command: 'node' }} />
      </WithHost>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes' }));
    const confirm = screen.getByRole('group', { name: 'Confirm removing notes' });
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(confirm, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Confirm removing notes' })).toBeNull();
    expect(host.sent('servers.remove')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove notes' })));
    expect(host.sent('servers.remove')).toEqual([{ name: 'notes' }]);
  });

  it('turning a server on writes the registry and leaves starting it to the Host', async () => {
    const off: ServerSummary = { ...notes, enabled: false, state: { kind: 'stopped' } };
    const host = hostWith([off]);
    render(
      <WithHost transport={host}>
        <ServerDetail server={off} config={{ command: 'node', enabled: false }} />
      </WithHost>,
    );
    await act(async () => fireEvent.click(screen.getByRole('switch', { name: 'notes enabled' })));
    expect(host.sent('servers.update')).toEqual([{ name: 'notes', config: { command: 'node' } }]);
    expect(host.sent('servers.start')).toEqual([]);
  });
});

describe('Sign in / Sign out of a remote server', () => {
  const remote: ServerSummary = { ...notes, name: 'linear', transport: 'http', target: 'https://mcp.linear.app/mcp', state: { kind: 'error', code: 'AUTH_REQUIRED', message: 'linear needs a sign-in.', stderrTail: '' } };

  function renderWith(status: { usesSignIn: boolean; signedIn: boolean }, server = remote) {
    const host = hostWith([server], [{ name: 'linear', config: { url: 'https://mcp.linear.app/mcp' } }]);
    let current = status;
    host.handlers['auth.status'] = () => current;
    render(
      <WithHost transport={host}>
        <ServerDetail server={server} />
      </WithHost>,
    );
    return { host, setStatus: (next: typeof status) => (current = next) };
  }

  it('a server never signed in offers Sign in only; once signed in, Sign out only', async () => {
    const { host, setStatus } = renderWith({ usesSignIn: true, signedIn: false });
    expect(await screen.findByRole('button', { name: 'Sign in to linear' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign out of linear' })).toBeNull();
    let finish: ((value: ServerSummary) => void) | undefined;
    host.handlers['auth.login'] = () => new Promise<ServerSummary>((resolve) => (finish = resolve));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign in to linear' })));
    expect(host.sent('auth.login')).toEqual([{ name: 'linear' }]);
    await act(async () => host.emit('auth.open', { server: 'linear', url: 'javascript:alert(1)' }));
    expect(document.querySelector('a')).toBeNull();
    expect(screen.getByText('javascript:alert(1)')).toBeTruthy();
    await act(async () => host.emit('auth.open', { server: 'linear', url: 'https://auth.example/authorize?x=1' }));
    const link = screen.getByRole('link', { name: 'https://auth.example/authorize?x=1' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    setStatus({ usesSignIn: true, signedIn: true });
    await act(async () => finish!({ ...remote, state: { kind: 'ready' } }));
    expect(screen.getByText('Signed in.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign out of linear' })).toBeTruthy());
  });

  it('a ready server with a sign-in offers only Sign out; one whose sign-in Harbor does not do offers neither', async () => {
    renderWith({ usesSignIn: true, signedIn: true }, { ...remote, state: { kind: 'ready' } });
    expect(await screen.findByRole('button', { name: 'Sign out of linear' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in to linear' })).toBeNull();
    cleanup();
    const { host } = renderWith({ usesSignIn: false, signedIn: false });
    await waitFor(() => expect(host.sent('auth.status')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /Sign (in to|out of) linear/ })).toBeNull();
  });
});

describe('Sign-in status on the card (#28)', () => {
  const ready: ServerSummary = { ...notes, name: 'linear', transport: 'http', target: 'https://mcp.linear.app/mcp', state: { kind: 'ready' } };
  function show(server: ServerSummary, status = { usesSignIn: true, signedIn: true }) {
    const host = hostWith([server], [{ name: 'linear', config: { url: 'https://mcp.linear.app/mcp' } }]);
    host.handlers['auth.status'] = () => status;
    render(
      <WithHost transport={host}>
        <ServerDetail server={server} />
      </WithHost>,
    );
  }

  it('signed in: as whom and when the token expires', async () => {
    show({ ...ready, signIn: { state: 'signed-in', subject: 'alice@example.com', expiresAt: Date.now() + 3_600_000 } });
    const line = document.querySelector('[data-sign-in="signed-in"]')!;
    expect(line.textContent).toContain('Signed in as alice@example.com');
    expect(line.textContent).toContain('the token expires');
    expect(await screen.findByRole('button', { name: 'Sign out of linear' })).toBeTruthy();
  });

  it('expired: says so and offers Sign in again beside Sign out', async () => {
    show({ ...ready, signIn: { state: 'expired', expiresAt: Date.now() - 1000, message: 'The sign-in expired and cannot be renewed. Sign in again.' } });
    expect(screen.getByRole('status').textContent).toContain('Sign-in expired: The sign-in expired and cannot be renewed.');
    expect(await screen.findByRole('button', { name: 'Sign in to linear' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in to linear' }).textContent).toBe('Sign in again');
  });

  it("refused: the authorization server's own message, and Sign in", async () => {
    show({ ...ready, state: { kind: 'stopped' }, signIn: { state: 'refused', message: 'The authorization server refused the sign-in: access_denied — "Ask your admin"' } }, { usesSignIn: true, signedIn: false });
    expect(screen.getByRole('status').textContent).toContain('Sign-in refused: The authorization server refused the sign-in: access_denied — "Ask your admin"');
    expect(await screen.findByRole('button', { name: 'Sign in to linear' })).toBeTruthy();
  });

  it('none: no line at all', () => {
    show({ ...ready, signIn: { state: 'none' } }, { usesSignIn: true, signedIn: false });
    expect(document.querySelector('[data-sign-in]')).toBeNull();
  });
});

describe('StateBadge and error hints', () => {
  it('counts down to the next restart', () => {
    expect(stateLabel({ kind: 'restarting', attempt: 2, maxAttempts: 5, nextAt: 10_500 }, 7_000)).toBe('Restarting 2/5 · in 4 s');
    expect(stateLabel({ kind: 'restarting', attempt: 2, maxAttempts: 5, nextAt: 10_000 }, 11_000)).toBe('Restarting 2/5');
  });

  it('a remote server that lost its connection says it is reconnecting, the attempt and when the next one is', () => {
    expect(stateLabel({ kind: 'restarting', attempt: 3, maxAttempts: 5, nextAt: 15_000 }, 7_000, 'http')).toBe('Reconnecting (attempt 3, next in 8 s)');
    expect(stateLabel({ kind: 'restarting', attempt: 3, maxAttempts: 5, nextAt: 7_000 }, 8_000, 'http')).toBe('Reconnecting (attempt 3)');
  });

  it('says what to do about common failures', () => {
    const error = (code: ErrorCode, message: string) => ({ kind: 'error' as const, code, message, stderrTail: '' });
    expect(hintFor({ transport: 'stdio', target: 'npx -y x' }, error('SPAWN_FAILED', 'spawn npx ENOENT'))).toMatchObject({ action: 'edit', text: expect.stringContaining('${harbor:node}') });
    expect(hintFor({ transport: 'stdio', target: 'uvx x' }, error('SPAWN_FAILED', 'spawn uvx ENOENT'))?.text).toContain('~/.local/bin');
    expect(hintFor({ transport: 'stdio', target: 'x' }, error('CONSENT_REQUIRED', 'Launching "x" …'))?.action).toBe('allowLaunch');
    expect(hintFor({ transport: 'stdio', target: 'x' }, error('SECRET_MISSING', 'not set'))?.action).toBe('edit');
    expect(hintFor({ transport: 'http', target: 'https://x' }, error('CONNECT_FAILED', 'refused'))?.text).toContain('Check the URL');
  });
});

describe('the server form model', () => {
  it('round-trips a config, keeping fields it does not edit and secret references', () => {
    const config = {
      command: 'npx',
      args: ['-y', '@scope/server'],
      env: { TOKEN: '${secret:github-token}', PLAIN: 'x' },
      disabledTools: ['danger'],
      alwaysAllow: ['search'],
      trusted: true,
      timeoutMs: 1500,
    };
    const form = formFromConfig('github', config);
    expect(form.env.map((r) => [r.key, r.secret, r.secretName, r.value])).toEqual([
      ['TOKEN', true, 'github-token', ''],
      ['PLAIN', false, undefined, 'x'],
    ]);
    expect(form.timeoutSeconds).toBe('1.5');
    expect(configFromForm(form)).toEqual({ config, secrets: [] });
  });

  it('stores a new secret value under a derived name and references it', () => {
    const form = { ...formFromConfig('My Server', { command: 'node' }), env: [{ id: 'a', key: 'API_KEY', value: 'v@lue', secret: true }] };
    const { config, secrets } = configFromForm(form);
    expect(secretNameFor('My Server', 'API_KEY')).toBe('my-server-api_key');
    expect(secrets).toEqual([{ name: 'my-server-api_key', value: 'v@lue' }]);
    expect(config.env).toEqual({ API_KEY: '${secret:my-server-api_key}' });
    expect(JSON.stringify(config)).not.toContain('v@lue');
  });

  it('validates names, commands, URLs, rows and timeouts', () => {
    const base = formFromConfig('', { command: '' });
    expect(validateServerForm(base, new Set())).toMatchObject({ name: 'Give the server a name.', command: expect.any(String) });
    expect(validateServerForm({ ...base, name: 'taken', command: 'x' }, new Set(['taken'])).name).toContain('already exists');
    expect(validateServerForm({ ...base, name: 'a', command: 'x ${secret:t}' }, new Set()).command).toContain('Secrets cannot go in the command line');
    const remote = { ...formFromConfig('r', { url: 'ftp://x' }) };
    expect(validateServerForm(remote, new Set()).url).toBe('Must be an http:// or https:// address.');
    const rows = { ...base, name: 'a', command: 'x', env: [{ id: 'r1', key: 'K', value: '', secret: true }, { id: 'r2', key: 'K', value: 'v', secret: false }] };
    expect(validateServerForm(rows, new Set())).toMatchObject({ 'env.r1.value': expect.stringContaining('keychain'), 'env.r2.key': '"K" is already set above.' });
    expect(validateServerForm({ ...base, name: 'a', command: 'x', timeoutSeconds: '-1' }, new Set()).timeoutSeconds).toBeDefined();
  });

  it('names follow the registry\'s own rules, as typed; variable names are ones a program receives unchanged', () => {
    const base = formFromConfig('', { command: 'x' });
    expect(validateServerForm({ ...base, name: ' github' }, new Set()).name).toMatch(/^The server name " github" starts or ends with a space/);
    expect(validateServerForm({ ...base, name: 'git\u200Bhub' }, new Set()).name).toMatch(/invisible or control character \(\\u200B\)/);
    expect(validateServerForm({ ...base, name: 'my/server' }, new Set()).name).toBe('Use letters, digits, spaces, ".", "_" or "-", starting with a letter or digit.');
    expect(validateServerForm({ ...base, name: 'My server 2' }, new Set()).name).toBeUndefined();
    const env = (key: string) => validateServerForm({ ...base, name: 'a', env: [{ id: 'r', key, value: 'v', secret: false }] }, new Set())['env.r.key'];
    expect(env('bad name')).toBe('A variable name cannot contain spaces: use "_" instead, e.g. API_KEY.');
    expect(env('1ST')).toBe('A variable name cannot start with a digit.');
    expect(env('A=B')).toBe('A variable name uses letters, digits and "_" only, e.g. API_KEY.');
    expect(env('GITHUB_TOKEN')).toBeUndefined();
  });

  it('splits a pasted command line like a shell (shell-quote), without expanding anything', () => {
    expect(splitCommandLine(`npx -y "@scope/server name" --dir 'a b' c\\ d $HOME \${harbor:node} *.js`)).toEqual({
      ok: true,
      words: ['npx', '-y', '@scope/server name', '--dir', 'a b', 'c d', '$HOME', '${harbor:node}', '*.js'],
    });
    expect(splitCommandLine('node server.mjs > log.txt')).toMatchObject({ ok: false, problem: expect.stringContaining('">"') });
  });

  it('reads a pasted mcpServers snippet in each app\'s shape, and nothing else', () => {
    const entry = { command: 'npx', args: ['-y', '@x/server'] };
    expect(readPastedServers(JSON.stringify({ mcpServers: { x: entry } }))).toEqual([{ name: 'x', config: entry }]);
    expect(readPastedServers(JSON.stringify({ servers: { a: entry, b: { type: 'http', url: 'https://e.example/mcp' } } }))?.map((s) => s.name)).toEqual(['a', 'b']);
    expect(readPastedServers(`"x": ${JSON.stringify(entry)},`)).toEqual([{ name: 'x', config: entry }]);
    expect(readPastedServers(`{ // a comment\n "command": "uvx", "args": ["mcp-server-fetch"], }`)).toEqual([{ config: { command: 'uvx', args: ['mcp-server-fetch'] } }]);
    expect(readPastedServers('npx -y @x/server')).toBeUndefined();
    expect(readPastedServers('{"not": "a server"}')).toBeUndefined();
  });
});

function ArgsHarness({ initial }: { initial: ArgRow[] }) {
  const [rows, setRows] = useState(initial);
  return (
    <>
      <ArgsEditor rows={rows} onChange={setRows} />
      <output>{JSON.stringify(rows.map((r) => r.value))}</output>
    </>
  );
}

describe('ArgsEditor', () => {
  it('adds, edits, reorders and removes arguments', async () => {
    render(<ArgsHarness initial={[{ id: '1', value: 'a' }, { id: '2', value: 'b' }]} />);
    const value = () => JSON.parse(screen.getByRole('status').textContent!) as string[];
    expect(screen.getByRole('button', { name: 'Move argument 1 up' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Move argument 1 down' }));
    expect(value()).toEqual(['b', 'a']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add argument' })));
    fireEvent.change(screen.getByRole('textbox', { name: 'Argument 3' }), { target: { value: 'with space' } });
    expect(value()).toEqual(['b', 'a', 'with space']);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Argument 3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove argument 1' }));
    expect(value()).toEqual(['a', 'with space']);
  });
});

function KvHarness({ initial, names }: { initial: KeyValueRow[]; names?: Set<string> }) {
  const [rows, setRows] = useState(initial);
  return (
    <>
      <KeyValueEditor legend="Environment variables" noun="variable" rows={rows} onChange={setRows} errors={{}} secretNames={names} />
      <output>{JSON.stringify(rows)}</output>
    </>
  );
}

describe('KeyValueEditor secret switch', () => {
  it('hides a secret value as a password field, and shows a stored secret only as "set"', async () => {
    render(<KvHarness initial={[{ id: 's', key: 'TOKEN', value: '', secret: true, secretName: 'gh-token' }]} names={new Set(['gh-token'])} />);
    expect(screen.getByText('Set')).toBeTruthy();
    expect(screen.getByText('gh-token')).toBeTruthy();
    expect(screen.queryByLabelText('Secret value of TOKEN')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Replace the value of TOKEN' }));
    const input = screen.getByLabelText('Secret value of TOKEN') as HTMLInputElement;
    expect(input.type).toBe('password');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add variable' })));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name of variable 2' }), { target: { value: 'PLAIN' } });
    const plain = screen.getByLabelText('Value of PLAIN') as HTMLInputElement;
    expect(plain.type).toBe('text');
    fireEvent.change(plain, { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('switch', { name: 'PLAIN is secret' }));
    expect((screen.getByLabelText('Secret value of PLAIN') as HTMLInputElement).type).toBe('password');
    const rows = JSON.parse(screen.getByRole('status').textContent!) as KeyValueRow[];
    expect(rows[1]).toMatchObject({ key: 'PLAIN', value: 'abc', secret: true });
  });

  it('says "Not set" when the keychain lacks the referenced secret', () => {
    render(<KvHarness initial={[{ id: 's', key: 'TOKEN', value: '', secret: true, secretName: 'missing' }]} names={new Set()} />);
    expect(screen.getByText('Not set')).toBeTruthy();
  });
});

describe('ServerForm', () => {
  it('adds the server with only a reference, its secret value sent along for the keychain (it belongs to this server); the Host starts it', async () => {
    const host = hostWith([]);
    const done: string[] = [];
    render(
      <WithHost transport={host}>
        <ServerForm takenNames={new Set()} secretNames={new Set()} onDone={(n) => done.push(n)} onCancel={() => undefined} />
      </WithHost>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'github' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Command' }), { target: { value: 'npx -y @scope/github' } });
    fireEvent.click(screen.getByRole('button', { name: 'Split into command and arguments' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add variable' })));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name of variable 1' }), { target: { value: 'GITHUB_TOKEN' } });
    fireEvent.click(screen.getByRole('switch', { name: 'GITHUB_TOKEN is secret' }));
    fireEvent.change(screen.getByLabelText('Secret value of GITHUB_TOKEN'), { target: { value: 'ghp_secret' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Trusted' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add server' })));

    // Saved only: starting it is the Host's, as for every other way a server is added.
    expect(host.calls.map((c) => c.command).filter((c) => ['secrets.set', 'servers.add', 'servers.start'].includes(c))).toEqual(['servers.add']);
    expect(host.sent('servers.add')).toEqual([
      {
        name: 'github',
        config: { command: 'npx', args: ['-y', '@scope/github'], env: { GITHUB_TOKEN: '${secret:github-github_token}' }, trusted: true },
        secrets: [{ name: 'github-github_token', value: 'ghp_secret' }],
      },
    ]);
    expect(done).toEqual(['github']);
  });

  it('shows what is wrong, focuses it, and sends nothing', async () => {
    const host = hostWith([]);
    render(
      <WithHost transport={host}>
        <ServerForm takenNames={new Set(['notes'])} secretNames={undefined} onDone={() => undefined} onCancel={() => undefined} />
      </WithHost>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'notes' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add server' })));
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(screen.getByText('A server named "notes" already exists.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    expect(host.calls.filter((c) => c.command === 'servers.add' || c.command === 'secrets.set')).toEqual([]);
  });

  it('checks the name and variable names as they are typed, and never saves "bad name"', async () => {
    const host = hostWith([]);
    const dirty: boolean[] = [];
    render(
      <WithHost transport={host}>
        <ServerForm takenNames={new Set(['notes'])} secretNames={undefined} onDone={() => undefined} onCancel={() => undefined} onDirtyChange={(d) => dirty.push(d)} />
      </WithHost>,
    );
    const name = screen.getByRole('textbox', { name: 'Name' });
    // Nothing shouts before the person types; then each keystroke is checked.
    expect(screen.queryByText(/^Give the server a name/)).toBeNull();
    fireEvent.change(name, { target: { value: 'notes' } });
    expect(screen.getByText('A server named "notes" already exists.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(name, { target: { value: 'notes ' } });
    expect(screen.getByText(/starts or ends with a space/)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'github' } });
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(dirty.at(-1)).toBe(true);

    fireEvent.change(screen.getByRole('textbox', { name: 'Command' }), { target: { value: 'node' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add variable' })));
    const variable = screen.getByRole('textbox', { name: 'Name of variable 1' });
    fireEvent.change(variable, { target: { value: 'bad name' } });
    expect(screen.getByText('A variable name cannot contain spaces: use "_" instead, e.g. API_KEY.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add server' })));
    expect(host.sent('servers.add')).toEqual([]);
    fireEvent.change(variable, { target: { value: 'GOOD_NAME' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add server' })));
    expect(host.sent('servers.add')).toEqual([{ name: 'github', config: { command: 'node', env: { GOOD_NAME: '' } } }]);
  });

  it('shows the Host\'s refusal as a sentence and keeps the form', async () => {
    const host = hostWith([]);
    host.handlers['servers.add'] = () => failure('CONFIG_INVALID', 'The configuration of "x" has problems: url: must be an http(s) URL');
    render(
      <WithHost transport={host}>
        <ServerForm takenNames={new Set()} secretNames={undefined} onDone={() => undefined} onCancel={() => undefined} />
      </WithHost>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'x' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Command' }), { target: { value: 'node' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add server' })));
    expect(screen.getByRole('alert').textContent).toContain('must be an http(s) URL');
    expect(screen.getByRole('form', { name: 'Add a server' })).toBeTruthy();
  });
});

describe('ServersPage', () => {
  it('refetches the list when the Host says a server changed', async () => {
    const servers: ServerSummary[] = [];
    const host = hostWith(servers);
    render(
      <WithHost transport={host}>
        <ServersPage />
      </WithHost>,
    );
    expect(await screen.findByText('No servers configured')).toBeTruthy();
    servers.push(notes);
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'config' }));
    expect(await screen.findByRole('heading', { name: 'notes' })).toBeTruthy();
  });

  it('previews an import (what is added, which secrets move) before applying it', async () => {
    const report: ImportReportData = {
      format: 'claude-desktop',
      label: 'Claude Desktop',
      source: '/home/me/.config/Claude/claude_desktop_config.json',
      configPath: '/x/harbor.json',
      dryRun: true,
      written: false,
      blocked: false,
      added: ['github'],
      identical: [],
      clashes: [],
      skipped: [{ name: 'bad', problems: ['args[1]: expected string'] }],
      servers: [{ name: 'github', transport: 'stdio', target: 'npx -y @modelcontextprotocol/server-github', enabled: true }],
      secretsMoved: [{ server: 'github', where: 'env', key: 'GITHUB_TOKEN', secret: 'github-github_token' }],
      secretsNotMoved: [],
      secretReferences: [{ server: 'github', where: 'env.GITHUB_TOKEN', secret: 'github-github_token', createdByFile: true }],
      inputsReferenced: [{ id: 'pat', description: 'Your token', defined: true, servers: ['github'] }],
      unresolvedVariables: [],
      warnings: [],
    };
    const host = hostWith([]);
    host.handlers['registry.importSources'] = () => [
      { format: 'claude-desktop', label: 'Claude Desktop', path: report.source, exists: true },
      { format: 'cursor', label: 'Cursor', path: '/home/me/.cursor/mcp.json', exists: false },
    ];
    host.handlers['registry.importPreview'] = () => report;
    host.handlers['registry.importApply'] = () => ({ ...report, dryRun: false, written: true });
    render(
      <WithHost transport={host}>
        <ServersPage />
      </WithHost>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Import…' }));
    const claude = (await screen.findByRole('radio', { name: /Claude Desktop/ })) as HTMLInputElement;
    expect(claude.checked).toBe(true);
    expect((screen.getByRole('radio', { name: /Cursor/ }) as HTMLInputElement).disabled).toBe(true);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Preview import' })));
    const preview = within(screen.getByRole('region', { name: 'Import preview' }));
    expect(preview.getByText('npx -y @modelcontextprotocol/server-github')).toBeTruthy();
    expect(preview.getByRole('list', { name: 'Secrets that move to the keychain' }).textContent).toContain('github-github_token');
    expect(preview.getByText(/Your token/)).toBeTruthy();
    expect(preview.getByText(/args\[1\]: expected string/)).toBeTruthy();
    expect(host.sent('registry.importApply')).toEqual([]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import 1 server' })));
    expect(host.sent('registry.importApply')).toEqual([{ path: report.source }]);
    await waitFor(() => expect(screen.getByText('Imported 1 server: github.')).toBeTruthy());
  });

  it('an import preview marks every keychain reference the file did not create', () => {
    const report = {
      format: 'claude-desktop' as const,
      label: 'Claude Desktop',
      source: '/tmp/claude.json',
      configPath: '/x/harbor.json',
      dryRun: true,
      written: false,
      blocked: false,
      added: ['evil', 'gh'],
      identical: [],
      clashes: [],
      skipped: [],
      servers: [],
      secretsMoved: [],
      secretsNotMoved: [],
      secretReferences: [
        { server: 'gh', where: 'env.GITHUB_TOKEN', secret: 'gh-github_token', createdByFile: true },
        { server: 'evil', where: 'headers.Authorization', secret: 'model-anthropic-api-key', createdByFile: false },
      ],
      inputsReferenced: [],
      unresolvedVariables: [],
      warnings: [],
    };
    render(<ImportPreview report={report} busy={false} />);
    expect(screen.getByText(/This file names a secret it did not create/)).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'Keychain secrets the servers use' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'gh env.GITHUB_TOKEN → gh-github_token (moved from this file)',
      'evil headers.Authorization → model-anthropic-api-key not created by this file',
    ]);
  });

  it('marks a raw JSON problem at its line', async () => {
    const host = hostWith([]);
    host.handlers['registry.save'] = () => ({ saved: false, problems: [{ path: 'mcpServers.x.args[0]', message: 'expected string, got number', line: 3 }] });
    render(
      <WithHost transport={host}>
        <ServersPage />
      </WithHost>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit as JSON' }));
    const editor = await screen.findByRole('textbox', { name: 'Configuration JSON' });
    fireEvent.change(editor, { target: { value: '{\n  "mcpServers": {\n    "x": { "command": "n", "args": [1] }\n  }\n}' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    const problems = within(screen.getByRole('list', { name: 'Problems' }));
    expect(problems.getByRole('button', { name: 'Line 3' })).toBeTruthy();
    expect(problems.getByText(/expected string, got number/)).toBeTruthy();
    expect(document.querySelector('.raw-editor__line--bad')?.textContent).toBe('3');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
  });
});
