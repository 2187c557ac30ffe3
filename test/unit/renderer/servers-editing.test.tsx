// @vitest-environment happy-dom
/**
 * The Servers page's editors: unsaved edits are never dropped without asking (Cancel, another
 * server, another page); the raw JSON editor checks as the person types and marks each problem's
 * line; importing decides each clash (skip, or rename) and sends the choices.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportReportData, RegistryProblem, RegistryView, ServerSummary } from '../../../preload/contract';
import { ServersPage } from '../../../renderer/src/features/servers/ServersPage';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);
beforeEach(() => {
  window.location.hash = '#/servers';
});

const servers: ServerSummary[] = [serverSummary('notes', { counts: { tools: 3 } }), serverSummary('files', { counts: { tools: 1 } })];
const registry = (text = '{}'): RegistryView => ({
  path: '/x/harbor.json',
  text,
  servers: servers.map((s) => ({ name: s.name, config: { command: 'node', args: [`${s.name}.js`] } })),
  problems: [],
});

function host(handlers: ConstructorParameters<typeof ContractTransport>[0] = {}) {
  return new ContractTransport({
    'servers.list': () => servers,
    'registry.get': () => registry(),
    'secrets.list': () => ({ names: [], available: true }),
    'chat.context': () => ({ contextWindow: 128000, toolTokens: 0, instructionTokens: 0, toolCount: 0, searchThresholdTokens: 6400, toolSearch: 'auto', mode: 'direct', servers: [], notConnected: [] }),
    'servers.update': (p) => ({ ...servers[0]!, name: String(p.newName ?? p.name) }),
    'registry.check': () => ({ problems: [] }),
    ...handlers,
  });
}

function renderPage(transport: ContractTransport) {
  render(
    <WithHost transport={transport}>
      <ServersPage />
    </WithHost>,
  );
}

const discardDialog = () => screen.queryByRole('dialog', { name: 'Discard unsaved changes?' });

describe('unsaved edits in the server form', () => {
  it('Cancel, another server and another page all ask first; Keep editing keeps the edits, Discard drops them', async () => {
    const transport = host();
    renderPage(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit notes' }));
    const form = screen.getByRole('form', { name: 'Edit notes' });
    // Untouched: Cancel closes without a question.
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(discardDialog()).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit notes' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Command' }), { target: { value: 'python3' } });
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(discardDialog()).toBeTruthy();
    expect(screen.getByText(/You have not saved your changes to notes/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(discardDialog()).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Command' }) as HTMLInputElement).value).toBe('python3');

    // Another server in the list: held, then asked about.
    fireEvent.click(screen.getByRole('link', { name: 'files' }));
    expect(window.location.hash).toBe('#/servers');
    expect(discardDialog()).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));

    // The toolbar's other panels ask too.
    fireEvent.click(screen.getByRole('button', { name: 'Edit as JSON' }));
    expect(discardDialog()).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));

    fireEvent.click(screen.getByRole('link', { name: 'files' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Discard changes' })));
    await waitFor(() => expect(window.location.hash).toBe('#/servers/files'));
    await waitFor(() => expect(screen.getByRole('article', { name: 'files' })).toBeTruthy());
    expect(screen.queryByRole('form')).toBeNull();
    expect(transport.sent('servers.update')).toEqual([]);
  });

  it('a link elsewhere in the app (the navigation) is held while there are unsaved edits', async () => {
    renderPage(host());
    fireEvent.click(await screen.findByRole('button', { name: 'Add server' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'new' } });
    const nav = document.createElement('a');
    nav.href = '#/tools';
    nav.textContent = 'Tools';
    document.body.append(nav);
    fireEvent.click(nav);
    expect(window.location.hash).toBe('#/servers');
    expect(screen.getByText(/You have not saved the new server/)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Discard changes' })));
    await waitFor(() => expect(window.location.hash).toBe('#/tools'));
    nav.remove();
  });
});

describe('the raw JSON editor', () => {
  const broken = '{\n  "mcpServers": {\n    "x": { "command": "n", "args": [1] }\n  }\n}';
  const problem: RegistryProblem = { path: 'mcpServers.x.args[0]', message: 'expected string, got number', line: 3 };

  it('checks as the person types (after a pause), marking the line; Save says which servers started', async () => {
    const transport = host({
      'registry.check': ({ text }) => ({ problems: text.includes('[1]') ? [problem] : [] }),
      'registry.save': () => ({ saved: true, problems: [], started: ['x'], restarted: ['notes'] }),
    });
    renderPage(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit as JSON' }));
    const editor = await screen.findByRole('textbox', { name: 'Configuration JSON' });
    expect(screen.getByText('No problems: this file can be saved.')).toBeTruthy();
    fireEvent.change(editor, { target: { value: broken } });
    // Not on every keystroke: nothing was asked yet.
    expect(transport.sent('registry.check')).toEqual([]);
    const problems = await screen.findByRole('list', { name: 'Problems' }, { timeout: 2000 });
    expect(transport.sent('registry.check')).toEqual([{ text: broken }]);
    expect(within(problems).getByRole('button', { name: 'Line 3' })).toBeTruthy();
    expect(within(problems).getByText(/expected string, got number/)).toBeTruthy();
    const marked = document.querySelector('.raw-editor__line--bad')!;
    expect(marked.textContent).toBe('3');
    expect(marked.getAttribute('title')).toBe('expected string, got number');
    expect(document.querySelectorAll('.raw-editor__tint--bad')).toHaveLength(1);
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(transport.sent('registry.save')).toEqual([]);

    fireEvent.change(editor, { target: { value: broken.replace('[1]', '["a"]') } });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Problems' })).toBeNull(), { timeout: 2000 });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(screen.getByRole('status').textContent).toBe('Saved: started x; restarted notes. The others kept running as they were.');
  });

  it('asks before Close throws typed changes away', async () => {
    renderPage(host());
    fireEvent.click(await screen.findByRole('button', { name: 'Edit as JSON' }));
    const editor = await screen.findByRole('textbox', { name: 'Configuration JSON' });
    fireEvent.change(editor, { target: { value: '{"mcpServers":{}}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText(/You have not saved your changes to the configuration file/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect((screen.getByRole('textbox', { name: 'Configuration JSON' }) as HTMLTextAreaElement).value).toBe('{"mcpServers":{}}');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Configuration JSON' })).toBeNull());
  });
});

describe('importing with names already taken', () => {
  const base: ImportReportData = {
    format: 'claude-desktop',
    label: 'Claude Desktop',
    source: '/home/me/claude.json',
    configPath: '/x/harbor.json',
    dryRun: true,
    written: false,
    blocked: true,
    added: ['fresh'],
    identical: [],
    clashes: [
      { name: 'notes', suggestedName: 'notes-2', existingTarget: 'node notes.js', incomingTarget: 'npx notes-server' },
      { name: 'files', suggestedName: 'files-2', existingTarget: 'node files.js', incomingTarget: 'uvx files' },
    ],
    skipped: [],
    servers: [{ name: 'fresh', transport: 'stdio', target: 'npx fresh', enabled: true }],
    secretsMoved: [],
    secretsNotMoved: [],
    secretReferences: [],
    inputsReferenced: [],
    unresolvedVariables: [],
    warnings: [],
  };

  it('each clash is skipped unless the person renames it; the preview and the import carry the choices', async () => {
    const transport = host({
      'registry.importSources': () => [{ format: 'claude-desktop', label: 'Claude Desktop', path: base.source, exists: true }],
      'registry.importPreview': (p) => {
        const rename = p.choices?.files;
        if (rename?.action !== 'rename') return base;
        if (rename.name === 'notes') return { ...base, clashes: [base.clashes[0]!, { ...base.clashes[1]!, problem: '"notes" is already taken: choose another name.' }] };
        return {
          ...base,
          blocked: false,
          added: ['fresh', rename.name!],
          clashes: [{ ...base.clashes[0]!, skipped: true }, { ...base.clashes[1]!, renamedTo: rename.name! }],
          servers: [...base.servers, { name: rename.name!, transport: 'stdio', target: 'uvx files', enabled: true }],
        };
      },
      'registry.importApply': (p) => ({ ...base, dryRun: false, written: true, blocked: false, added: ['fresh', 'files uv'], clashes: [{ ...base.clashes[0]!, skipped: true }, { ...base.clashes[1]!, renamedTo: String((p.choices?.files as { name: string }).name) }] }),
    });
    renderPage(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Import…' }));
    await screen.findByRole('radio', { name: /Claude Desktop/ });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Preview import' })));
    const clashes = within(screen.getByRole('group', { name: 'Already here, with a different configuration' }));
    const notes = within(clashes.getByRole('group', { name: 'notes' }));
    expect(notes.getByText('node notes.js')).toBeTruthy();
    expect(notes.getByText('npx notes-server')).toBeTruthy();
    expect((notes.getByRole('radio', { name: 'Skip it' }) as HTMLInputElement).checked).toBe(true);
    // Skipping by default: the import is not blocked by a clash nobody decided.
    expect((screen.getByRole('button', { name: 'Import 1 server' }) as HTMLButtonElement).disabled).toBe(false);

    const files = within(clashes.getByRole('group', { name: 'files' }));
    fireEvent.click(files.getByRole('radio', { name: 'Import it as' }));
    const newName = files.getByRole('textbox', { name: 'New name for files' }) as HTMLInputElement;
    expect(newName.value).toBe('files-2');
    fireEvent.change(newName, { target: { value: 'notes' } });
    await waitFor(() => expect(files.getByText('"notes" is already taken: choose another name.')).toBeTruthy(), { timeout: 2000 });
    expect((screen.getByRole('button', { name: 'Import 1 server' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(newName, { target: { value: 'files uv' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Import 2 servers' })).toBeTruthy(), { timeout: 2000 });
    expect(transport.sent('registry.importPreview').at(-1)).toEqual({ path: base.source, choices: { notes: { action: 'skip' }, files: { action: 'rename', name: 'files uv' } } });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import 2 servers' })));
    expect(transport.sent('registry.importApply')).toEqual([{ path: base.source, choices: { notes: { action: 'skip' }, files: { action: 'rename', name: 'files uv' } } }]);
    await waitFor(() => expect(screen.getByText('Skipped, as you chose: notes.')).toBeTruthy());
  });
});
