// @vitest-environment happy-dom
/**
 * Installing in the app: the bundle dialog (what the bundle is, its settings as a form, the exact
 * command before anything is written, install then start, cancel discards) and the gallery page
 * (search, what each way of running needs, the install dialog's plan), against the contract.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleReviewData, GalleryServerData, InstallOutcomeData } from '../../../preload/contract';
import { BundleHost } from '../../../renderer/src/features/bundles/BundleHost';
import { GalleryPage } from '../../../renderer/src/features/gallery/GalleryPage';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

const REVIEW: BundleReviewData = {
  id: 'b-1',
  fileName: 'hello.mcpb',
  name: 'hello-bundle',
  displayName: 'Hello Bundle',
  version: '1.0.0',
  description: 'A small server \u202Egnp.exe',
  author: { name: 'Harbor Tests', email: 'tests@example.com' },
  manifestVersion: '0.3',
  serverType: 'node',
  tools: [{ name: 'greet', description: 'Greets' }],
  toolsGenerated: false,
  prompts: [{ name: 'welcome' }],
  promptsGenerated: true,
  settings: [
    { key: 'api_key', type: 'string', title: 'API key', description: 'The key', required: true, sensitive: true, multiple: false },
    { key: 'greeting', type: 'string', title: 'Greeting', description: 'How it greets', required: false, sensitive: false, multiple: false, default: 'Hello' },
  ],
  signature: { status: 'unsigned' },
  sandbox: { requested: true, enforced: true, allowed: ['write only to its own temporary folder', 'no network access'] },
  files: 2,
  unpackedBytes: 4096,
  suggestedName: 'hello-bundle',
};

function outcome(values: Record<string, unknown>, installed: boolean): InstallOutcomeData {
  return {
    plan: {
      server: 'hello-bundle',
      transport: 'stdio',
      target: `/usr/bin/node /data/bundles/hello-bundle/1.0.0/server/index.mjs --greeting ${String(values.greeting ?? 'Hello')}`,
      envNames: ['HELLO_API_KEY'],
      headerNames: [],
      secrets: [{ key: 'api_key', secret: 'hello-bundle-api_key' }],
      sandbox: {
        requested: false,
        enforced: false,
        allowed: ['read and write every file you can'],
        note: 'Not sandboxed: the setting "Sandbox servers installed from bundles and the gallery" is off.',
      },
      config: { command: '${harbor:node}' },
    },
    installed,
    ...(installed ? { summary: serverSummary('hello-bundle', { state: { kind: 'stopped' } }) } : {}),
  };
}

describe('the bundle dialog', () => {
  it('shows the review, asks for the settings, shows the exact command, installs and starts', async () => {
    const transport = new ContractTransport({
      'bundles.pending': () => [REVIEW],
      'bundles.install': (p) => (p.values.api_key ? outcome(p.values, p.dryRun !== true) : failure('BAD_REQUEST', 'This bundle needs a setting that has no value: "api_key" (API key).')),
      'servers.start': (p) => serverSummary(p.name),
    });
    render(
      <WithHost transport={transport}>
        <BundleHost />
      </WithHost>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Install Hello Bundle 1.0.0' });
    // The bundle's own text cannot reorder what the person reads.
    expect(dialog.textContent).toContain('A small server ⟨U+202E⟩gnp.exe');
    expect(within(dialog).getByText('Unsigned')).toBeTruthy();
    expect(within(dialog).getByText('greet')).toBeTruthy();
    // Before the plan, the review's sandbox: this server will run inside it.
    expect(within(dialog).getByText('Sandboxed')).toBeTruthy();
    expect(within(dialog).getByText('no network access')).toBeTruthy();
    expect(await within(dialog).findByText(/"api_key" \(API key\)/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Install' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(within(dialog).getByLabelText(/^API key/), { target: { value: 'k-1' } });
    fireEvent.change(within(dialog).getByLabelText('Greeting'), { target: { value: 'Ahoy' } });
    await waitFor(() => expect(within(dialog).getByRole('region', { name: 'Command' }).textContent).toContain('--greeting Ahoy'));
    expect(within(dialog).getByRole('region', { name: 'Secrets' }).textContent).toContain('hello-bundle-api_key');
    // The plan's sandbox says why this one will not be sandboxed.
    expect(within(dialog).getByText('Not sandboxed')).toBeTruthy();
    expect(dialog.textContent).toContain('the setting "Sandbox servers installed from bundles and the gallery" is off');
    // The default is not sent back as the person's choice.
    expect(transport.sent('bundles.install').at(-1)).toEqual({ id: 'b-1', name: 'hello-bundle', values: { api_key: 'k-1', greeting: 'Ahoy' }, dryRun: true });

    await waitFor(() => expect((within(dialog).getByRole('button', { name: 'Install' }) as HTMLButtonElement).disabled).toBe(false));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Install' })));
    await waitFor(() => expect(transport.sent('servers.start')).toEqual([{ name: 'hello-bundle' }]));
    expect(transport.sent('bundles.install').at(-1)).toEqual({ id: 'b-1', name: 'hello-bundle', values: { api_key: 'k-1', greeting: 'Ahoy' } });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a bundle the desktop app opened appears; cancelling discards it', async () => {
    const transport = new ContractTransport({ 'bundles.pending': () => [], 'bundles.install': () => failure('BAD_REQUEST', 'needs api_key'), 'bundles.discard': () => ({ discarded: true }) });
    render(
      <WithHost transport={transport}>
        <BundleHost />
      </WithHost>,
    );
    await act(async () => transport.emit('bundles.opened', { ...REVIEW, id: 'b-2', existing: { server: 'hello', version: '0.9.0' } }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Hello Bundle 1.0.0' });
    expect(dialog.textContent).toContain('Version 0.9.0 is installed as “hello”');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(transport.sent('bundles.discard')).toEqual([{ id: 'b-2' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

const BRAVE: GalleryServerData = {
  name: 'io.github.brave/brave-search-mcp-server',
  title: 'Brave Search',
  description: 'MCP server for Brave Search API integration',
  version: '2.0.1',
  repository: { url: 'https://github.com/brave/brave-search-mcp-server', source: 'github' },
  options: [
    {
      index: 0,
      kind: 'package',
      type: 'npm',
      identifier: '@brave/brave-search-mcp-server',
      version: '2.0.1',
      transport: 'stdio',
      supported: true,
      inputs: [{ key: 'BRAVE_API_KEY', kind: 'env', description: 'Brave Search API Key', required: true, secret: true }],
    },
    { index: 1, kind: 'package', type: 'cargo', identifier: 'brave', transport: 'stdio', supported: false, note: 'Harbor cannot install this: it is a cargo package.', inputs: [] },
  ],
};

describe('the gallery page', () => {
  it('searches the configured registry, shows what each way needs, and installs with the plan shown first', async () => {
    const transport = new ContractTransport({
      'gallery.settings': () => ({ registries: ['http://127.0.0.1:9000'] }),
      'gallery.search': (p) => ({ registry: p.registry ?? '', servers: p.query === 'nothing' ? [] : [BRAVE] }),
      'gallery.install': (p) =>
        p.values.BRAVE_API_KEY
          ? {
              plan: { server: p.name ?? 'x', transport: 'stdio', target: 'npx -y @brave/brave-search-mcp-server@2.0.1', envNames: ['BRAVE_API_KEY'], headerNames: [], secrets: [{ key: 'BRAVE_API_KEY', secret: 'brave-search-mcp-server-brave_api_key' }], config: {} },
              installed: p.dryRun !== true,
            }
          : failure('BAD_REQUEST', 'This server needs "BRAVE_API_KEY".'),
      'servers.start': (p) => serverSummary(p.name),
    });
    render(
      <WithHost transport={transport}>
        <GalleryPage />
      </WithHost>,
    );
    const result = await screen.findByRole('listitem', { name: 'Brave Search' });
    expect(result.textContent).toContain('https://github.com/brave/brave-search-mcp-server');
    expect(result.textContent).toContain('BRAVE_API_KEY (secret)');
    expect((within(result).getByRole('button', { name: /cargo/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(transport.sent('gallery.search')[0]).toEqual({ registry: 'http://127.0.0.1:9000' });

    fireEvent.click(within(result).getByRole('button', { name: 'Install Brave Search (npm)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install Brave Search 2.0.1' });
    expect((within(dialog).getByLabelText(/BRAVE_API_KEY/) as HTMLInputElement).type).toBe('password');
    fireEvent.change(within(dialog).getByLabelText(/BRAVE_API_KEY/), { target: { value: 'bsa-1' } });
    await waitFor(() => expect(within(dialog).getByRole('region', { name: 'Command' }).textContent).toContain('npx -y @brave/brave-search-mcp-server@2.0.1'));
    await waitFor(() => expect((within(dialog).getByRole('button', { name: 'Install' }) as HTMLButtonElement).disabled).toBe(false));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Install' })));
    await waitFor(() => expect(screen.getByText('Installed “brave-search-mcp-server”. Harbor asks before it first runs.')).toBeTruthy());
    expect(transport.sent('gallery.install').at(-1)).toEqual({ registry: 'http://127.0.0.1:9000', server: BRAVE.name, version: '2.0.1', option: 0, values: { BRAVE_API_KEY: 'bsa-1' }, name: 'brave-search-mcp-server' });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the registry' }), { target: { value: 'nothing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No servers match.')).toBeTruthy();
  });

  it('an unreachable registry is said plainly, with a way to try again', async () => {
    const transport = new ContractTransport({
      'gallery.settings': () => ({ registries: ['http://127.0.0.1:9'] }),
      'gallery.search': () => failure('CONNECT_FAILED', 'Cannot reach the MCP Registry at http://127.0.0.1:9: nothing is listening there.'),
    });
    render(
      <WithHost transport={transport}>
        <GalleryPage />
      </WithHost>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Cannot reach the MCP Registry');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
