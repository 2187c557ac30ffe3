// @vitest-environment happy-dom
/**
 * The app's side of VS Code inputs and registry problems: the import preview asks for the values
 * an imported file's servers need (a password one unechoed) and sends them with the preview and
 * the import; a preview made without a keychain says so and does not offer the import; and a
 * server left with another app's placeholder shows why it does not start on its page, in the
 * words the Host uses (test/integration/cli-import-inputs.test.ts checks the Host gives them).
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportReportData, ServerSummary } from '../../../preload/contract';
import { ServerDetail } from '../../../renderer/src/features/servers/ServerDetail';
import { ServersPage } from '../../../renderer/src/features/servers/ServersPage';
import { ContractTransport } from '../../helpers/contract-transport';
import { cannotStartMessage, configEntryProblems } from '../../../main/host/registry/placeholders';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

const SOURCE = '/home/me/project/.vscode/mcp.json';

function report(overrides: Partial<ImportReportData> = {}): ImportReportData {
  return {
    format: 'vscode',
    label: 'VS Code',
    source: SOURCE,
    configPath: '/x/harbor.json',
    dryRun: true,
    written: false,
    blocked: false,
    added: ['fs', 'gh'],
    identical: [],
    clashes: [],
    skipped: [],
    servers: [
      { name: 'fs', transport: 'stdio', target: 'npx -y @modelcontextprotocol/server-filesystem /home/me/project', enabled: true },
      { name: 'gh', transport: 'stdio', target: 'npx -y server-github', enabled: true },
    ],
    secretsMoved: [],
    secretsNotMoved: [],
    secretReferences: [],
    inputsReferenced: [
      { id: 'root-dir', description: 'Folder to serve', defined: true, servers: ['fs'], filled: 'default' },
      { id: 'gh-token', description: 'GitHub token', password: true, defined: true, servers: ['gh'] },
    ],
    unresolvedVariables: [],
    warnings: [],
    ...overrides,
  };
}

function importHost(preview: (p: Record<string, unknown>) => ImportReportData): ContractTransport {
  return new ContractTransport({
    'servers.list': () => [],
    'registry.get': () => ({ path: '/x/harbor.json', text: '{}', servers: [], problems: [] }),
    'secrets.list': () => ({ names: [], available: true }),
    'chat.context': () => ({ contextWindow: 128000, toolTokens: 0, instructionTokens: 0, toolCount: 0, searchThresholdTokens: 6400, toolSearch: 'auto', mode: 'direct', servers: [], notConnected: [] }),
    'registry.importSources': () => [{ format: 'vscode', label: 'VS Code', path: SOURCE, exists: true }],
    'registry.importPreview': (p) => preview(p),
    'registry.importApply': () => ({ ...report(), dryRun: false, written: true }),
  });
}

async function openPreview(host: ContractTransport) {
  render(
    <WithHost transport={host}>
      <ServersPage />
    </WithHost>,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Import…' }));
  await screen.findByRole('radio', { name: /VS Code/ });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Preview import' })));
  return within(screen.getByRole('region', { name: 'Import preview' }));
}

describe('the import preview asks for input values', () => {
  it('shows a password field for an input without a default, previews with the value, and imports with it', async () => {
    const host = importHost((p) =>
      p.inputs
        ? report({ inputsReferenced: [report().inputsReferenced[0]!, { ...report().inputsReferenced[1]!, filled: 'given' }], secretsMoved: [{ server: 'gh', where: 'env', key: 'GITHUB_TOKEN', secret: 'gh-github_token' }] })
        : report(),
    );
    const preview = await openPreview(host);
    const form = within(preview.getByRole('form', { name: 'Input values' }));
    // The input with a default is not asked for; the password one is, unechoed.
    expect(form.queryByLabelText(/Folder to serve/)).toBeNull();
    expect(preview.getByText(/Filled from the file's defaults: root-dir/)).toBeTruthy();
    const token = form.getByLabelText(/GitHub token/) as HTMLInputElement;
    expect(token.type).toBe('password');
    fireEvent.change(token, { target: { value: 'ghp_typed_value' } });
    await act(async () => fireEvent.click(form.getByRole('button', { name: 'Use these values' })));
    expect(host.sent('registry.importPreview').at(-1)).toEqual({ path: SOURCE, inputs: { 'gh-token': 'ghp_typed_value' } });
    await waitFor(() => expect(screen.getByRole('list', { name: 'Secrets that move to the keychain' }).textContent).toContain('gh-github_token'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import 2 servers' })));
    expect(host.sent('registry.importApply')).toEqual([{ path: SOURCE, inputs: { 'gh-token': 'ghp_typed_value' } }]);
  });

  it('without a keychain: says the secrets cannot be imported yet and does not offer the import', async () => {
    const host = importHost(() =>
      report({
        secretsMoved: [{ server: 'gh', where: 'env', key: 'GITHUB_TOKEN', secret: 'gh-github_token' }],
        keychainUnavailable: 'The OS keychain is unavailable: there is no D-Bus session bus.',
      }),
    );
    const preview = await openPreview(host);
    expect(preview.getByRole('alert').textContent).toMatch(/No system keychain is available.*there is no D-Bus session bus/s);
    expect((screen.getByRole('button', { name: 'Import 2 servers' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("a server left with another app's placeholder", () => {
  it('its page says why it does not start and how to fix it', () => {
    const configs = {
      gh: { command: 'node', args: ['server.js'], env: { GITHUB_TOKEN: '${input:gh-token}' } },
      both: { command: 'node', url: 'http://127.0.0.1:9/mcp' },
    };
    const summaries: ServerSummary[] = Object.entries(configs).map(([name, config]) =>
      serverSummary(name, { state: { kind: 'error', code: 'CONFIG_INVALID', message: cannotStartMessage(name, configEntryProblems(config as never)), stderrTail: '' } }),
    );
    render(
      <WithHost transport={importHost(() => report())}>
        {summaries.map((summary) => (
          <ServerDetail key={summary.name} server={summary} />
        ))}
      </WithHost>,
    );
    const gh = within(screen.getByRole('article', { name: 'gh' }));
    expect(gh.getByText(/env\.GITHUB_TOKEN: \$\{input:gh-token\} is a value another app \(VS Code\) asks for/)).toBeTruthy();
    expect(gh.getByText(/--set gh-token=VALUE/)).toBeTruthy();
    expect(gh.getByText('CONFIG_INVALID')).toBeTruthy();
    expect(gh.getByText(/Edit the server to fix it/)).toBeTruthy();
    const both = within(screen.getByRole('article', { name: 'both' }));
    expect(both.getByText(/has both "command" and "url"/)).toBeTruthy();
  });
});
