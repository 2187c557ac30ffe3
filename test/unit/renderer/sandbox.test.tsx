// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RegistryView, SandboxRefusalData, SandboxStatusData, ServerSummary } from '../../../preload/contract';
import { SandboxPanel } from '../../../renderer/src/features/sandbox/SandboxPanel';
import { sandboxConfigFromForm, sandboxFormFromConfig, validateSandboxForm } from '../../../renderer/src/features/sandbox/sandbox-form-model';
import { ServerForm } from '../../../renderer/src/features/servers/ServerForm';
import { ServerDetail } from '../../../renderer/src/features/servers/ServerDetail';
import { configFromForm, formFromConfig } from '../../../renderer/src/features/servers/server-form-model';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

const LINUX: SandboxStatusData = { platform: 'linux', available: true, mechanism: 'bubblewrap', sandboxInstalled: true };
const WINDOWS: SandboxStatusData = {
  platform: 'win32',
  available: false,
  reason: 'Harbor cannot sandbox servers on Windows',
  fix: 'servers run unsandboxed here',
  sandboxInstalled: true,
};

const registry = (servers: RegistryView['servers']): RegistryView => ({ path: '/x/harbor.json', text: '{}', servers, problems: [] });

describe('the Sandbox section as data', () => {
  it('reads the field, one line per folder or host, the npm registry as its own switch, and writes it back', () => {
    const form = sandboxFormFromConfig({ allowWrite: ['~/notes'], allowedDomains: ['registry.npmjs.org', 'api.example.com'], future: 1 });
    expect(form).toEqual({ enabled: true, allowWrite: '~/notes', denyRead: '', allowedDomains: 'api.example.com', npmRegistry: true, extra: { future: 1 } });
    expect(sandboxConfigFromForm(form)).toEqual({ future: 1, allowWrite: ['~/notes'], allowedDomains: ['registry.npmjs.org', 'api.example.com'] });
    expect(sandboxConfigFromForm(sandboxFormFromConfig(true))).toBe(true);
    expect(sandboxConfigFromForm({ ...form, enabled: false })).toBeUndefined();
    expect(sandboxFormFromConfig(undefined).enabled).toBe(false);
  });

  it('says what is wrong with a relative folder or a URL instead of a host', () => {
    const form = { ...sandboxFormFromConfig(true), allowWrite: 'notes', allowedDomains: 'https://api.example.com/v1' };
    expect(validateSandboxForm(form)).toEqual({
      'sandbox.allowWrite': '"notes" is not an absolute path: start it with / or ~/.',
      'sandbox.allowedDomains': '"https://api.example.com/v1": write only the host, e.g. api.example.com.',
    });
    expect(validateSandboxForm({ ...form, enabled: false })).toEqual({});
  });

  it('is part of a local server\'s entry, and turning it off removes the field', () => {
    const form = formFromConfig('files', { command: 'npx', sandbox: { allowWrite: ['/srv'] } });
    expect(configFromForm(form).config).toEqual({ command: 'npx', sandbox: { allowWrite: ['/srv'] } });
    expect(configFromForm({ ...form, sandbox: { ...form.sandbox, enabled: false } }).config).toEqual({ command: 'npx' });
  });
});

describe('the server editor', () => {
  it('edits the sandbox: a folder to write, npx downloads allowed, saved with the server', async () => {
    const host = new ContractTransport({ 'sandbox.status': () => LINUX, 'servers.update': (p) => serverSummary(p.name) });
    let done = '';
    render(
      <WithHost transport={host}>
        <ServerForm editing={{ name: 'files', config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], sandbox: true } }} takenNames={new Set(['files'])} secretNames={new Set()} onDone={(n) => (done = n)} onCancel={() => undefined} />
      </WithHost>,
    );
    const section = within(screen.getByRole('group', { name: 'Sandbox' }));
    expect((section.getByRole('switch', { name: 'Run in a sandbox' }) as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(section.getByText(/inside bubblewrap/)).toBeTruthy());
    fireEvent.change(section.getByLabelText(/Folders it may write/), { target: { value: '~/Documents/notes' } });
    fireEvent.click(section.getByRole('checkbox', { name: /Let npx download packages/ }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(done).toBe('files');
    expect(host.sent('servers.update')).toEqual([
      { name: 'files', config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], sandbox: { allowWrite: ['~/Documents/notes'], allowedDomains: ['registry.npmjs.org'] } } },
    ]);
  });

  it('refuses to save a relative folder, saying why next to the field', async () => {
    const host = new ContractTransport({ 'sandbox.status': () => LINUX });
    render(
      <WithHost transport={host}>
        <ServerForm editing={{ name: 'files', config: { command: 'npx', sandbox: true } }} takenNames={new Set(['files'])} secretNames={new Set()} onDone={() => undefined} onCancel={() => undefined} />
      </WithHost>,
    );
    fireEvent.change(screen.getByLabelText(/Folders it may write/), { target: { value: 'notes' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })));
    expect(screen.getByText('"notes" is not an absolute path: start it with / or ~/.')).toBeTruthy();
    expect(host.sent('servers.update')).toEqual([]);
  });

  it('on Windows says plainly that servers run unsandboxed, and that a sandboxed one will not start', async () => {
    const host = new ContractTransport({ 'sandbox.status': () => WINDOWS });
    render(
      <WithHost transport={host}>
        <ServerForm editing={{ name: 'files', config: { command: 'npx' } }} takenNames={new Set(['files'])} secretNames={new Set()} onDone={() => undefined} onCancel={() => undefined} />
      </WithHost>,
    );
    await waitFor(() => expect(screen.getByText(/Servers run unsandboxed here, with your rights\./)).toBeTruthy());
    expect(screen.getByText(/cannot sandbox servers on Windows/)).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Run in a sandbox' }));
    expect(screen.getByText(/Until then this server does not start; turn the sandbox off to run it unsandboxed\./)).toBeTruthy();
  });
});

describe('the servers list', () => {
  const files = serverSummary('files', { sandboxed: true });
  const plain = serverSummary('plain', { sandboxed: false });
  const remote = serverSummary('remote', { transport: 'http', target: 'https://mcp.example.com/mcp' });

  function hostWith(servers: ServerSummary[], refusals: SandboxRefusalData[] = []) {
    return new ContractTransport({
      'servers.list': () => servers,
      'sandbox.refusals': () => refusals,
      'sandbox.allow': (p) => ({ ...files, name: p.server }),
      'servers.update': (p) => serverSummary(p.name),
      'servers.start': (p) => serverSummary(p.name),
      'servers.stderr': () => ({ text: '' }),
      'auth.status': () => ({ usesSignIn: false, signedIn: false }),
    });
  }

  it('shows which local servers are sandboxed', () => {
    render(
      <WithHost transport={hostWith([files, plain, remote])}>
        {/* Each server's details (the Servers page shows the one picked). */}
        {[files, plain, remote].map((server) => (
          <ServerDetail key={server.name} server={server} />
        ))}
      </WithHost>,
    );
    expect(within(screen.getByRole('article', { name: 'files' })).getByText('Sandboxed')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'plain' })).getByText('Not sandboxed')).toBeTruthy();
    const remoteCard = within(screen.getByRole('article', { name: 'remote' }));
    expect(remoteCard.queryByText('Sandboxed')).toBeNull();
    expect(remoteCard.queryByText('Not sandboxed')).toBeNull();
  });

  it('lists what the sandbox refused with one click to allow it, and adds refusals as they happen', async () => {
    const write: SandboxRefusalData = { server: 'files', at: 1, kind: 'write', target: '/srv/out/x.txt', count: 2, suggestion: { label: 'allow writing to /srv/out', change: { kind: 'allowWrite', path: '/srv/out' }, rule: '"sandbox": { "allowWrite": ["/srv/out"] }' } };
    const secret: SandboxRefusalData = { server: 'files', at: 2, kind: 'read', target: '/home/ann/.ssh/id_ed25519', count: 1 };
    const refusals = [write, secret];
    const host = hostWith([files], refusals);
    render(
      <WithHost transport={host}>
        <ServerDetail server={files} />
      </WithHost>,
    );
    const refused = within(await screen.findByRole('region', { name: 'What the sandbox refused files' }));
    expect(refused.getByText('/srv/out/x.txt')).toBeTruthy();
    expect(refused.getByText('(2 times)')).toBeTruthy();
    expect(refused.getByText('Always hidden from sandboxed servers.')).toBeTruthy();
    // The registry rule that would allow it, as written in harbor.json (issue 28: the fix named where the person looks).
    expect(refused.getByText('"sandbox": { "allowWrite": ["/srv/out"] }')).toBeTruthy();

    const network: SandboxRefusalData = { server: 'files', at: 3, kind: 'network', target: 'example.com:443', count: 1, suggestion: { label: 'allow example.com', change: { kind: 'allowDomain', domain: 'example.com' }, rule: '"sandbox": { "allowedDomains": ["example.com"] }' } };
    refusals.push(network); // the Host keeps it too: a reload still lists it
    act(() => host.emit('sandbox.refused', network));
    expect(refused.getByText('example.com:443')).toBeTruthy();
    expect(refused.getByText('"sandbox": { "allowedDomains": ["example.com"] }')).toBeTruthy();
    act(() => host.emit('sandbox.refused', { server: 'other', at: 4, kind: 'network', target: 'elsewhere.com:443', count: 1 }));
    expect(refused.queryByText('elsewhere.com:443')).toBeNull();

    await act(async () => fireEvent.click(refused.getByRole('button', { name: 'Allow writing to /srv/out' })));
    await act(async () => fireEvent.click(refused.getByRole('button', { name: 'Allow example.com' })));
    expect(host.sent('sandbox.allow')).toEqual([
      { server: 'files', change: { kind: 'allowWrite', path: '/srv/out' } },
      { server: 'files', change: { kind: 'allowDomain', domain: 'example.com' } },
    ]);
  });

  it('where the sandbox cannot run, explains it and offers to run the server without it', async () => {
    const blocked: ServerSummary = {
      ...files,
      state: { kind: 'error', code: 'SANDBOX_UNAVAILABLE', message: 'Server "files" runs in a sandbox, and the sandbox cannot run here: bubblewrap is missing.', stderrTail: '' },
    };
    const host = hostWith([blocked]);
    render(
      <WithHost transport={host}>
        <ServerDetail server={blocked} config={registry([{ name: 'files', config: { command: 'npx', sandbox: true } }]).servers[0]!.config} />
      </WithHost>,
    );
    const card = within(screen.getByRole('article', { name: 'files' }));
    expect(card.getByText(/this machine cannot run the sandbox/)).toBeTruthy();
    await act(async () => fireEvent.click(card.getByRole('button', { name: 'Run without the sandbox' })));
    expect(host.sent('servers.update')).toEqual([{ name: 'files', config: { command: 'npx' } }]);
    expect(host.sent('servers.start')).toEqual([{ name: 'files' }]);
  });
});

describe('the Settings panel', () => {
  it('says what this machine gets, and switches sandboxing of installed servers', async () => {
    let status = LINUX;
    const host = new ContractTransport({
      'sandbox.status': () => status,
      'sandbox.setInstallDefault': (p) => (status = { ...status, sandboxInstalled: p.sandbox }),
    });
    render(
      <WithHost transport={host}>
        <SandboxPanel />
      </WithHost>,
    );
    const toggle = (await screen.findByRole('switch', { name: 'Sandbox servers installed from bundles and the gallery' })) as HTMLInputElement;
    expect(screen.getByText(/inside bubblewrap/)).toBeTruthy();
    expect(toggle.checked).toBe(true);
    await act(async () => fireEvent.click(toggle));
    expect(host.sent('sandbox.setInstallDefault')).toEqual([{ sandbox: false }]);
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Sandbox servers installed from bundles and the gallery' }) as HTMLInputElement).checked).toBe(false));
  });

  it('on a machine without the sandbox, says why and that installed servers run unsandboxed', async () => {
    const host = new ContractTransport({ 'sandbox.status': () => WINDOWS });
    render(
      <WithHost transport={host}>
        <SandboxPanel />
      </WithHost>,
    );
    expect(await screen.findByText(/This machine cannot run the sandbox: Harbor cannot sandbox servers on Windows\. Servers run unsandboxed here\./)).toBeTruthy();
    expect(screen.getByText(/installed servers run unsandboxed, with your rights/)).toBeTruthy();
  });
});
