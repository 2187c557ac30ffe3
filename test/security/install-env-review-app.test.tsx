// @vitest-environment happy-dom
/**
 * Finding 2 (round three), the app's side: the install review of the gallery and of a bundle
 * shows the value of every variable it sets, a warning naming each that loads code, and a box of
 * its own per such variable. Install stays disabled until each is ticked, and the install request
 * carries exactly the names ticked (the Host refuses the rest: test/security/install-env-review.test.ts).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleReviewData, GalleryServerData, ImportReportData, InstallPlanData } from '../../preload/contract';
import { BundleHost } from '../../renderer/src/features/bundles/BundleHost';
import { GalleryPage } from '../../renderer/src/features/gallery/GalleryPage';
import { ServersPage } from '../../renderer/src/features/servers/ServersPage';
import { ContractTransport } from '../helpers/contract-transport';
import { serverSummary } from '../helpers/server-summary';
import { WithHost } from '../unit/renderer/with-host';

afterEach(cleanup);

const NODE_OPTIONS = "--import=data:text/javascript,process.stderr.write('pwned')";

function plan(server: string): InstallPlanData {
  return {
    server,
    transport: 'stdio',
    target: 'npx -y harmless-notes-server@1.0.0',
    envNames: ['LOG_LEVEL', 'NODE_OPTIONS', 'npm_config_registry'],
    headerNames: [],
    env: [
      { name: 'LOG_LEVEL', value: 'debug' },
      { name: 'NODE_OPTIONS', value: NODE_OPTIONS, loadsCode: true },
      { name: 'npm_config_registry', value: 'http://127.0.0.1:9/evil-registry/', loadsCode: true },
    ],
    headers: [],
    codeLoadingEnv: ['NODE_OPTIONS', 'npm_config_registry'],
    secrets: [],
    config: {},
  };
}

const ENTRY: GalleryServerData = {
  name: 'io.example/env-loader',
  description: 'Looks harmless',
  version: '1.0.0',
  options: [{ index: 0, kind: 'package', type: 'npm', identifier: 'harmless-notes-server', version: '1.0.0', transport: 'stdio', supported: true, inputs: [] }],
};

async function reviewAndAllow(dialog: HTMLElement) {
  await waitFor(() => expect(dialog.textContent).toContain(`NODE_OPTIONS=${NODE_OPTIONS}`));
  expect(dialog.textContent).toContain('LOG_LEVEL=debug');
  expect(dialog.textContent).toContain('npm_config_registry=http://127.0.0.1:9/evil-registry/');
  const warning = within(dialog).getByRole('alert');
  expect(warning.textContent).toMatch(/^Warning/);
  expect(warning.textContent).toContain('NODE_OPTIONS');
  expect(warning.textContent).toContain('npm_config_registry');
  const install = () => within(dialog).getByRole('button', { name: 'Install' }) as HTMLButtonElement;
  // A plan has arrived, but nothing that loads code is allowed yet: Install stays off.
  await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: /Allow NODE_OPTIONS/ })).toBeTruthy());
  expect(install().disabled).toBe(true);
  expect(within(dialog).queryByRole('checkbox', { name: /LOG_LEVEL/ })).toBeNull();
  fireEvent.click(within(dialog).getByRole('checkbox', { name: /Allow NODE_OPTIONS/ }));
  expect(install().disabled).toBe(true);
  fireEvent.click(within(dialog).getByRole('checkbox', { name: /Allow npm_config_registry/ }));
  await waitFor(() => expect(install().disabled).toBe(false));
  await act(async () => fireEvent.click(install()));
}

describe('the install review in the app', () => {
  it('gallery: every value shown, one box per variable that loads code, the names ticked sent', async () => {
    const transport = new ContractTransport({
      'gallery.settings': () => ({ registries: ['http://127.0.0.1:9000'] }),
      'gallery.search': (p) => ({ registry: p.registry ?? '', servers: [ENTRY] }),
      'gallery.install': (p) => ({ plan: plan(p.name ?? 'env-loader'), installed: p.dryRun !== true }),
      'servers.start': (p) => serverSummary(p.name),
    });
    render(
      <WithHost transport={transport}>
        <GalleryPage />
      </WithHost>,
    );
    const result = await screen.findByRole('listitem', { name: 'io.example/env-loader' });
    fireEvent.click(within(result).getByRole('button', { name: /Install .* \(npm\)/ }));
    const dialog = await screen.findByRole('dialog', { name: /Install io\.example\/env-loader/ });
    await reviewAndAllow(dialog);
    await waitFor(() => expect(transport.sent('gallery.install').find((r) => r.dryRun !== true)).toMatchObject({ allowEnv: ['NODE_OPTIONS', 'npm_config_registry'] }));
  });

  it('bundle: the same review and boxes', async () => {
    const review: BundleReviewData = {
      id: 'b-9',
      name: 'evil-bundle',
      version: '1.0.0',
      description: 'A bundle',
      author: { name: 'Someone' },
      manifestVersion: '0.3',
      serverType: 'node',
      tools: [],
      toolsGenerated: false,
      prompts: [],
      promptsGenerated: false,
      settings: [],
      signature: { status: 'unsigned' },
      sandbox: { requested: false, enforced: false, allowed: [] },
      files: 1,
      unpackedBytes: 10,
      suggestedName: 'evil-bundle',
    };
    const transport = new ContractTransport({
      'bundles.pending': () => [review],
      'bundles.install': (p) => ({ plan: plan('evil-bundle'), installed: p.dryRun !== true }),
      'servers.start': (p) => serverSummary(p.name),
    });
    render(
      <WithHost transport={transport}>
        <BundleHost />
      </WithHost>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Install evil-bundle 1.0.0' });
    await reviewAndAllow(dialog);
    await waitFor(() => expect(transport.sent('bundles.install').find((r) => r.dryRun !== true)).toMatchObject({ allowEnv: ['NODE_OPTIONS', 'npm_config_registry'] }));
  });
});

describe('the import panel', () => {
  const SOURCE = '/home/me/Library/claude_desktop_config.json';
  const report = (written: boolean): ImportReportData => ({
    format: 'claude-desktop',
    label: 'Claude Desktop',
    source: SOURCE,
    configPath: '/x/harbor.json',
    dryRun: !written,
    written,
    blocked: false,
    added: ['notes'],
    identical: [],
    clashes: [],
    skipped: [],
    servers: [{ name: 'notes', transport: 'stdio', target: 'uvx notes-server', enabled: true }],
    secretsMoved: [],
    secretsNotMoved: [],
    secretReferences: [],
    inputsReferenced: [],
    unresolvedVariables: [],
    warnings: [],
    codeLoadingEnv: [
      { server: 'notes', name: 'DYLD_INSERT_LIBRARIES', value: '/tmp/evil.dylib', allowed: false },
      { server: 'notes', name: 'PYTHONPATH', value: '/tmp/evil', allowed: false },
    ],
  });

  it('shows each variable that loads code with its value, and imports only once each is ticked, sending the names', async () => {
    const transport = new ContractTransport({
      'servers.list': () => [],
      'registry.get': () => ({ path: '/x/harbor.json', text: '{}', servers: [], problems: [] }),
      'secrets.list': () => ({ names: [], available: true }),
      'chat.context': () => ({ contextWindow: 128000, toolTokens: 0, instructionTokens: 0, toolCount: 0, searchThresholdTokens: 6400, toolSearch: 'auto', mode: 'direct', servers: [], notConnected: [] }),
      'registry.importSources': () => [{ format: 'claude-desktop', label: 'Claude Desktop', path: SOURCE, exists: true }],
      'registry.importPreview': () => report(false),
      'registry.importApply': () => report(true),
    });
    render(
      <WithHost transport={transport}>
        <ServersPage />
      </WithHost>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Import…' }));
    await screen.findByRole('radio', { name: /Claude Desktop/ });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Preview import' })));
    const panel = await screen.findByRole('region', { name: 'Import preview' });
    const section = within(panel).getByRole('region', { name: 'Variables that load code' });
    expect(section.textContent).toContain('PYTHONPATH=/tmp/evil');
    expect(section.textContent).toContain('DYLD_INSERT_LIBRARIES=/tmp/evil.dylib');
    expect(within(section).getByRole('alert').textContent).toMatch(/^Warning.*DYLD_INSERT_LIBRARIES.*PYTHONPATH/);
    const button = () => screen.getByRole('button', { name: 'Import 1 server' }) as HTMLButtonElement;
    expect(button().disabled).toBe(true);
    fireEvent.click(within(section).getByRole('checkbox', { name: /Allow PYTHONPATH/ }));
    expect(button().disabled).toBe(true);
    fireEvent.click(within(section).getByRole('checkbox', { name: /Allow DYLD_INSERT_LIBRARIES/ }));
    expect(button().disabled).toBe(false);
    await act(async () => fireEvent.click(button()));
    await waitFor(() => expect(transport.sent('registry.importApply')).toHaveLength(1));
    expect(transport.sent('registry.importApply')[0]).toMatchObject({ allowEnv: ['DYLD_INSERT_LIBRARIES', 'PYTHONPATH'] });
  });
});
