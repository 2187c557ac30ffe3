// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentDecisions, ConsentPolicyMode, ServerSummary, SettingsData } from '../../../preload/contract';
import { SettingsPage } from '../../../renderer/src/features/settings/SettingsPage';
import { applyTheme, loadTheme, setTheme } from '../../../renderer/src/features/settings/theme';
import { builtinCommands } from '../../../renderer/src/features/palette/builtin-commands';
import { usePageTheme } from '../../../renderer/src/features/apps/use-page-theme';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(() => {
  cleanup();
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

const DEFAULTS: SettingsData['defaults'] = { maxSteps: 25, resultCapBytes: 100_000, toolSearch: 'auto', toolSearchThreshold: 0.05, contextWindow: 128_000, requestTimeoutMs: 60_000 };

const feature: ServerSummary = serverSummary('feature', { trusted: true, target: 'node f', counts: { tools: 1 } });

/** The Settings page over a scripted Host. */
function renderSettings(host: ContractTransport) {
  return render(
    <WithHost transport={host}>
      <SettingsPage />
    </WithHost>,
  );
}

function settingsHost(initial: SettingsData, decisions: ConsentDecisions = { approvals: [], launches: [], changes: [], secrets: [] }) {
  const state = { settings: initial, decisions, policies: [] as Array<{ server: string; tool: string; mode: ConsentPolicyMode }>, testError: undefined as string | undefined };
  const host = new ContractTransport({
    'app.info': () => ({ name: 'Harbor', version: '0.1.0', mode: 'web', configPath: '/x/harbor.json', dataDir: '/x', platform: 'linux', versions: { node: '24' }, configProblems: [] }),
    'settings.get': () => state.settings,
    'settings.setModel': (p) => {
      const model = p.model as { provider: 'anthropic'; model: string; apiKeyMode: string } | null;
      state.settings = model
        ? { ...state.settings, model: { provider: model.provider, model: model.model, apiKey: model.apiKeyMode === 'set' ? { kind: 'secret', secret: 'model-anthropic-api-key', set: true } : { kind: 'env', variable: 'ANTHROPIC_API_KEY' } } }
        : { chat: state.settings.chat, defaults: DEFAULTS };
      return state.settings;
    },
    'settings.setChat': (p) => (state.settings = { ...state.settings, chat: p.chat as SettingsData['chat'] }),
    'servers.list': () => [feature],
    'registry.get': () => ({ path: '/x', text: '', problems: [], servers: [{ name: 'feature', config: { command: 'node', timeoutMs: 30_000 } }] }),
    'consent.list': () => state.decisions,
    'consent.policies': () => state.policies,
    'consent.setPolicy': (p) => {
      state.policies = p.mode ? [{ server: String(p.server), tool: String(p.tool), mode: p.mode }] : [];
      return state.policies;
    },
    'consent.revoke': (p) => {
      state.decisions = { ...state.decisions, approvals: state.decisions.approvals.filter((a) => !(a.server === p.server && a.tool === p.tool)) };
      return { removed: 1 };
    },
    'servers.update': (p) => ({ ...feature, name: p.name }),
    'sandbox.status': () => ({ platform: 'linux', available: true, mechanism: 'bubblewrap' as const, sandboxInstalled: true }),
    'gallery.settings': () => ({ registries: ['https://registry.modelcontextprotocol.io'] }),
    'gallery.setSettings': (p) => ({ registries: p.registries }),
    'settings.testModel': () => (state.testError ? failure('MODEL_ERROR', state.testError) : state.settings.model ? { model: `${state.settings.model.provider}:${state.settings.model.model}`, ms: 42, reply: 'ok' } : failure('MODEL_NOT_CONFIGURED', 'No model is set.')),
  });
  return { host, state };
}

describe('theme', () => {
  it('is "system" until chosen, applied through data-theme, and remembered', () => {
    expect(loadTheme()).toBe('system');
    setTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(loadTheme()).toBe('dark');
    applyTheme('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(loadTheme({ getItem: () => 'purple' })).toBe('system');
    expect(loadTheme({ getItem: () => { throw new Error('denied'); } })).toBe('system');
  });

  it('switches from the Settings page', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    fireEvent.click(screen.getByRole('radio', { name: 'Same as the system' }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('the palette\'s theme toggle moves the Settings radios along while the page is open', () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    const toggle = builtinCommands().find((c) => c.id === 'theme.toggle')!;
    act(() => void toggle.run());
    expect(document.documentElement.dataset.theme).toBe('dark');
    const checked = (name: string) => (screen.getByRole('radio', { name }) as HTMLInputElement).checked;
    expect(checked('Dark')).toBe(true);
    act(() => void toggle.run());
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(checked('Light')).toBe(true);
  });

  it('the theme apps are given follows every change made in Settings or the palette', () => {
    function Shown() {
      return <output>{usePageTheme()}</output>;
    }
    render(<Shown />);
    const shown = () => screen.getByRole('status').textContent;
    // "system" under happy-dom's light system theme.
    expect(shown()).toBe('light');
    act(() => setTheme('dark'));
    expect(shown()).toBe('dark');
    act(() => void builtinCommands().find((c) => c.id === 'theme.toggle')!.run());
    expect(shown()).toBe('light');
  });
});

describe('model settings', () => {
  it('sends a new key to be stored in the keychain and never shows it again', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    const model = within(await screen.findByRole('region', { name: 'Model' }));
    expect(model.getByText(/No model is set/)).toBeTruthy();
    fireEvent.change(model.getByRole('textbox', { name: 'Model' }), { target: { value: 'claude-x' } });
    fireEvent.click(model.getByRole('radio', { name: /Set a key/ }));
    fireEvent.change(model.getByLabelText('API key'), { target: { value: 'sk-ant-VALUE' } });
    expect((model.getByLabelText('API key') as HTMLInputElement).type).toBe('password');
    await act(async () => fireEvent.click(model.getByRole('button', { name: 'Save model' })));
    expect(host.sent('settings.setModel')).toEqual([{ model: { provider: 'anthropic', model: 'claude-x', apiKeyMode: 'set', apiKey: 'sk-ant-VALUE' } }]);
    await waitFor(() => expect(model.getByText(/Saved. The key is in the system keychain/)).toBeTruthy());
    expect(document.body.innerHTML).not.toContain('sk-ant-VALUE');
    await waitFor(() => expect((model.getByRole('radio', { name: /Keep the current key/ }) as HTMLInputElement).checked).toBe(true));
  });

  it('explains a missing address for an OpenAI-compatible model without sending anything', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    const model = within(await screen.findByRole('region', { name: 'Model' }));
    fireEvent.change(model.getByRole('combobox', { name: 'Provider' }), { target: { value: 'openai-compatible' } });
    fireEvent.change(model.getByRole('textbox', { name: 'Model' }), { target: { value: 'llama' } });
    await act(async () => fireEvent.click(model.getByRole('button', { name: 'Save model' })));
    expect(model.getByText(/needs its address/)).toBeTruthy();
    expect(host.sent('settings.setModel')).toEqual([]);
  });

  it('saves the discovery threshold as a fraction', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    const chat = within(await screen.findByRole('region', { name: 'Tools in chat' }));
    fireEvent.change(chat.getByRole('textbox', { name: /Threshold/ }), { target: { value: '10' } });
    expect(chat.getByText('≈ 12,800 tokens of a 128,000-token window.')).toBeTruthy();
    fireEvent.change(chat.getByRole('textbox', { name: 'Steps per turn' }), { target: { value: '0' } });
    await act(async () => fireEvent.click(chat.getByRole('button', { name: 'Save' })));
    expect(chat.getByText('Steps is a whole number above 0.')).toBeTruthy();
    fireEvent.change(chat.getByRole('textbox', { name: 'Steps per turn' }), { target: { value: '' } });
    await act(async () => fireEvent.click(chat.getByRole('button', { name: 'Save' })));
    expect(host.sent('settings.setChat')).toEqual([{ chat: { toolSearchThreshold: 0.1 } }]);
  });

  it('sets code mode, and keeps it when the other chat settings are saved', async () => {
    const { host } = settingsHost({ chat: { codeMode: 'on' }, defaults: DEFAULTS });
    renderSettings(host);
    const chat = within(await screen.findByRole('region', { name: 'Tools in chat' }));
    const code = within(chat.getByRole('group', { name: 'Code mode' }));
    expect((code.getByRole('radio', { name: /^Instead of the tools/ }) as HTMLInputElement).checked).toBe(true);
    await act(async () => fireEvent.click(chat.getByRole('button', { name: 'Save' })));
    fireEvent.click(code.getByRole('radio', { name: /^Beside the tools/ }));
    await act(async () => fireEvent.click(chat.getByRole('button', { name: 'Save' })));
    expect(host.sent('settings.setChat')).toEqual([{ chat: { codeMode: 'on' } }, { chat: {} }]);
  });
});

describe('approvals', () => {
  it('lists remembered decisions with what changed since, and revokes one', async () => {
    const { host } = settingsHost(
      { chat: {}, defaults: DEFAULTS },
      {
        approvals: [{ server: 'feature', tool: 'echo', kind: 'always', fingerprint: 'f', createdAt: 1000 }],
        launches: [{ server: 'feature', commandLine: 'node f.mjs', createdAt: 500 }],
        changes: [{ server: 'feature', tool: 'echo', changed: ['description'], at: 2000 }],
        secrets: [],
      },
    );
    renderSettings(host);
    const list = within(await screen.findByRole('list', { name: 'Remembered decisions' }));
    expect(list.getByText(/changed since: description/)).toBeTruthy();
    expect(list.getByText('node f.mjs')).toBeTruthy();
    await act(async () => fireEvent.click(list.getByRole('button', { name: 'Revoke echo of feature' })));
    expect(host.sent('consent.revoke')).toEqual([{ server: 'feature', tool: 'echo' }]);
    await waitFor(() => expect(list.queryByText(/always allowed/)).toBeNull());
  });

  it('sets and clears a per-server default', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    const select = await screen.findByRole('combobox', { name: 'Tool calls of feature' });
    await act(async () => fireEvent.change(select, { target: { value: 'deny' } }));
    expect(host.sent('consent.setPolicy')).toEqual([{ server: 'feature', tool: '*', mode: 'deny' }]);
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Tool calls of feature' }) as HTMLSelectElement).value).toBe('deny'));
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: 'Tool calls of feature' }), { target: { value: '' } }));
    expect(host.sent('consent.setPolicy').at(-1)).toEqual({ server: 'feature', tool: '*', mode: null });
  });
});

describe('timeouts', () => {
  it('edits a server\'s timeout in seconds, keeping the rest of its config', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    const input = await screen.findByRole('textbox', { name: 'feature' });
    expect((input as HTMLInputElement).value).toBe('30');
    fireEvent.change(input, { target: { value: '2.5' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save the timeout of feature' })));
    expect(host.sent('servers.update')).toEqual([{ name: 'feature', config: { command: 'node', timeoutMs: 2500 } }]);
  });
});

describe('installing settings', () => {
  it('one switch sandboxes installed servers (the Sandbox panel); the Gallery panel saves only its registries', async () => {
    const { host } = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderSettings(host);
    expect(await screen.findByRole('switch', { name: 'Sandbox servers installed from bundles and the gallery' })).toBeTruthy();
    const gallery = await screen.findByRole('region', { name: 'Gallery' });
    const registries = (await within(gallery).findByLabelText(/MCP Registries the gallery searches/)) as HTMLTextAreaElement;
    fireEvent.change(registries, { target: { value: 'http://127.0.0.1:9000\n\n' } });
    await act(async () => fireEvent.click(within(gallery).getByRole('button', { name: 'Save' })));
    await waitFor(() => expect(host.sent('gallery.setSettings')).toEqual([{ registries: ['http://127.0.0.1:9000'] }]));
    expect(screen.getAllByRole('switch', { name: /Sandbox servers installed/ })).toHaveLength(1);
  });
});

describe('Settings sections and the connection test', () => {
  const renderPage = (host: ContractTransport) =>
    renderSettings(host);
  const saved: SettingsData = { model: { provider: 'openai-compatible', model: 'scripted', baseURL: 'http://127.0.0.1:1/v1', apiKey: { kind: 'env' } }, chat: {}, defaults: DEFAULTS };

  it('has its own navigation: a deep link per section, in page order', async () => {
    const { host } = settingsHost(saved);
    renderPage(host);
    await screen.findByRole('region', { name: 'Model' });
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Model', '#/settings/model'],
      ['Tools in chat', '#/settings/chat'],
      ['Toolsets', '#/settings/toolsets'],
      ['Approvals', '#/settings/approvals'],
      ['Timeouts', '#/settings/timeouts'],
      ['Sandbox', '#/settings/sandbox'],
      ['Gallery sources', '#/settings/gallery'],
      ['Appearance', '#/settings/appearance'],
      ['Updates', '#/settings/updates'],
      ['About', '#/settings/about'],
    ]);
    // Each link's target holds the panel of that name.
    expect(document.getElementById('settings-section-approvals')!.querySelector('h2')!.textContent).toBe('Approvals');
    expect(document.getElementById('settings-section-appearance')!.querySelector('h2')!.textContent).toBe('Appearance');
  });

  it('a deep link lands on its section: marked current, its heading focused', async () => {
    window.location.hash = '#/settings/timeouts';
    try {
      const { host } = settingsHost(saved);
      renderPage(host);
      await waitFor(() => expect(document.activeElement?.textContent).toBe('Timeouts'));
      expect(within(screen.getByRole('navigation', { name: 'Settings sections' })).getByRole('link', { name: 'Timeouts' }).getAttribute('aria-current')).toBe('location');
    } finally {
      window.location.hash = '';
    }
  });

  it('tests the saved model and says who answered, how fast and what', async () => {
    const { host } = settingsHost(saved);
    renderPage(host);
    const model = within(await screen.findByRole('region', { name: 'Model' }));
    await act(async () => fireEvent.click(model.getByRole('button', { name: 'Test connection' })));
    expect(host.sent('settings.testModel')).toEqual([{}]);
    await waitFor(() => expect(model.getByRole('status').textContent).toBe('Connected: openai-compatible:scripted answered in 42 ms — “ok”.'));
  });

  it('shows a failed test as an error with its fix, and offers no test without a saved model', async () => {
    const { host, state } = settingsHost(saved);
    state.testError = 'The model failed: connect ECONNREFUSED (HTTP 502). Check that the provider is reachable.';
    renderPage(host);
    const model = within(await screen.findByRole('region', { name: 'Model' }));
    await act(async () => fireEvent.click(model.getByRole('button', { name: 'Test connection' })));
    await waitFor(() => expect(model.getByText(/ECONNREFUSED/)).toBeTruthy());
    cleanup();
    const empty = settingsHost({ chat: {}, defaults: DEFAULTS });
    renderPage(empty.host);
    const none = within(await screen.findByRole('region', { name: 'Model' }));
    expect(none.queryByRole('button', { name: 'Test connection' })).toBeNull();
  });
});
