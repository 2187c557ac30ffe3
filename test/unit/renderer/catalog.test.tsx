// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../../preload/contract';
import { matches } from '../../../renderer/src/features/catalog/CatalogFrame';
import { ContentBlocks, ResourceContent, describeSize } from '../../../renderer/src/features/catalog/ContentView';
import { imageSource as safeImageSrc } from '../../../renderer/src/lib/image-source';
import { CompletingInput } from '../../../renderer/src/features/catalog/CompletingInput';
import { expandTemplate, templateVariables } from '../../../renderer/src/features/resources/uri-template';
import { ToolsPage } from '../../../renderer/src/features/tools/ToolsPage';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(() => {
  cleanup();
  // The pages keep their search and selection in localStorage: each test starts without.
  localStorage.clear();
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('MCP content is rendered inert', () => {
  it('renders text as text, never as HTML', () => {
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>[x](javascript:alert(3))';
    const { container } = render(<ContentBlocks blocks={[{ type: 'text', text: hostile }]} />);
    expect(container.querySelector('img, script, a')).toBeNull();
    expect(screen.getByText(hostile)).toBeTruthy();
  });

  it('shows images only as data: URIs of raster image types', () => {
    expect(safeImageSrc('image/png', PNG)).toBe(`data:image/png;base64,${PNG}`);
    expect(safeImageSrc('image/svg+xml', 'PHN2Zz4=')).toBeUndefined();
    expect(safeImageSrc('text/html', PNG)).toBeUndefined();
    expect(safeImageSrc('image/png', 'x" onerror="alert(1)')).toBeUndefined();
    const { container } = render(
      <ContentBlocks
        blocks={[
          { type: 'image', mimeType: 'image/png', data: PNG },
          { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' },
          { type: 'resource_link', uri: 'https://tracker.example/pixel.gif', name: 'pixel' },
        ]}
      />,
    );
    const images = container.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]!.getAttribute('src')!.startsWith('data:image/png;base64,')).toBe(true);
    expect(screen.getByText(/An image of type image\/svg\+xml/)).toBeTruthy();
    expect(container.querySelector('a')).toBeNull();
  });

  it('describes binary resources by size instead of showing them', () => {
    render(<ResourceContent content={{ uri: 'file:///x.zip', mimeType: 'application/zip', blob: 'A'.repeat(4096) }} />);
    expect(screen.getByText(/Binary content \(application\/zip\), 3.0 KB to download/)).toBeTruthy();
    expect(describeSize('AAAA')).toBe('3 bytes');
  });

  it('shows unknown blocks as JSON text', () => {
    render(<ContentBlocks blocks={[{ type: 'future', payload: { a: 1 } }]} />);
    expect(screen.getByText(/"type": "future"/)).toBeTruthy();
  });
});

describe('URI templates and search', () => {
  it('lists variables and expands levels 1-3', () => {
    expect(templateVariables('fixture://item/{id}{?page,size}{#frag}')).toEqual(['id', 'page', 'size', 'frag']);
    expect(expandTemplate('fixture://unicode/{name}', { name: 'ünï' })).toBe('fixture://unicode/%C3%BC%6E%C3%AF'.replace('%6E', 'n'));
    expect(expandTemplate('x://{a}/{+path}{?q,n}', { a: 'a b', path: 'p/q', q: 'x&y' })).toBe('x://a%20b/p/q?q=x%26y');
    expect(expandTemplate('x://{/seg}{.ext}', { seg: 's', ext: 'json' })).toBe('x:///s.json');
  });

  it('matches every word of a query in any field', () => {
    expect(matches('read file', 'read_file', 'Reads a file')).toBe(true);
    expect(matches('READ', 'read_file')).toBe(true);
    expect(matches('write file', 'read_file', 'Reads a file')).toBe(false);
    expect(matches('  ', 'anything')).toBe(true);
  });
});

const feature: ServerSummary = serverSummary('feature', { trusted: true, target: 'node feature.mjs', counts: { tools: 2 } });

function toolsHost(tools: Array<Record<string, unknown>>, disabledTools: string[] = []) {
  const state = { tools, disabledTools, servers: [feature] };
  const host = new ContractTransport({
    'servers.list': () => state.servers,
    'registry.get': () => ({ path: '/x', text: '', problems: [], servers: [{ name: 'feature', config: { command: 'node', disabledTools: state.disabledTools } }] }),
    'catalog.get': () => ({ server: 'feature', tools: state.tools, resources: [], resourceTemplates: [], prompts: [] }),
    'tools.setEnabled': (p) => {
      state.disabledTools = p.enabled ? state.disabledTools.filter((t) => t !== p.tool) : [...state.disabledTools, String(p.tool)];
      return { disabledTools: state.disabledTools };
    },
    'tools.call': (p) => ({ content: [{ type: 'text', text: `ran ${String(p.tool)} with ${JSON.stringify(p.arguments)}` }] }),
  });
  return { host, state };
}

describe('Tools page', () => {
  it('searches every server at once, grouped by server, and keeps the search and the tool opened across a remount', async () => {
    const echo = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' } };
    const host = new ContractTransport({
      'servers.list': () => [feature, serverSummary('second', { counts: { tools: 2 } })],
      'registry.get': () => ({ path: '/x', text: '', problems: [], servers: [] }),
      'catalog.get': ({ name }) => ({ server: name, tools: [echo, { name: `${name}_only`, inputSchema: { type: 'object' } }], resources: [], resourceTemplates: [], prompts: [] }),
      // The page ranks by the Host's index: this Host's index knows the two "only" tools.
      'tools.search': ({ query }) =>
        ['feature', 'second'].map((server) => ({ server, tool: `${server}_only`, score: 1 })).filter((hit) => hit.tool.includes(query)),
    });
    const page = () => (
      <WithHost transport={host}>
        <ToolsPage />
      </WithHost>
    );
    const first = render(page());
    const second = await screen.findByRole('region', { name: 'second' });
    await within(second).findByRole('list', { name: 'Tools of second' });
    expect(await screen.findByRole('list', { name: 'Tools of feature' })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tools' }), { target: { value: 'only' } });
    expect(await screen.findByRole('button', { name: 'Run feature_only' })).toBeTruthy();
    expect(await within(second).findByRole('button', { name: 'Run second_only' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run echo' })).toBeNull();
    fireEvent.click(within(second).getByRole('button', { name: 'Run second_only' }));
    first.unmount();

    render(page());
    expect((await screen.findByRole('searchbox', { name: 'Search tools' }) as HTMLInputElement).value).toBe('only');
    const again = await screen.findByRole('region', { name: 'second' });
    expect(await within(again).findByRole('region', { name: /^Run second_only/ })).toBeTruthy();
  });

  it('lists tools, updates live when the server changes them, and keeps descriptions as text', async () => {
    const { host, state } = toolsHost([
      { name: 'echo', description: 'Echo the text back.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
      { name: 'add', description: 'Add.', inputSchema: { type: 'object' } },
    ]);
    const { container } = render(
      <WithHost transport={host}>
        <ToolsPage />
      </WithHost>,
    );
    const list = await screen.findByRole('list', { name: 'Tools of feature' });
    expect(within(list).getByText('Echo the text back.')).toBeTruthy();
    state.tools = [{ name: 'echo', description: '<img src=x onerror=alert(1)> changed', inputSchema: { type: 'object' } }];
    await act(async () => host.emit('servers.changed', { name: 'feature', reason: 'catalog', changed: ['tools'] }));
    await waitFor(() => expect(within(list).getByText('<img src=x onerror=alert(1)> changed')).toBeTruthy());
    expect(within(list).queryByText('Add.')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    // A change to another list of the server does not refetch the tools.
    const fetches = host.sent('catalog.get').length;
    await act(async () => host.emit('servers.changed', { name: 'feature', reason: 'catalog', changed: ['prompts'] }));
    expect(host.sent('catalog.get')).toHaveLength(fetches);
  });

  it('turns a tool off through tools.setEnabled and says how many are off', async () => {
    const { host } = toolsHost([{ name: 'echo', description: 'Echo.' }]);
    render(
      <WithHost transport={host}>
        <ToolsPage />
      </WithHost>,
    );
    const toggle = await screen.findByRole('switch', { name: 'Offer echo to the model' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await act(async () => fireEvent.click(toggle));
    expect(host.sent('tools.setEnabled')).toEqual([{ server: 'feature', tool: 'echo', enabled: false }]);
    expect((screen.getByRole('switch', { name: 'Offer echo to the model' }) as HTMLInputElement).checked).toBe(false);
    await act(async () => host.emit('servers.changed', { name: 'feature', reason: 'config' }));
    await waitFor(() => expect(screen.getByText(/1 turned off/)).toBeTruthy());
  });

  it('runs a tool by hand with the arguments from its form', async () => {
    const { host } = toolsHost([
      { name: 'echo', description: 'Echo.', inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 2 } }, required: ['text'] } },
    ]);
    render(
      <WithHost transport={host}>
        <ToolsPage />
      </WithHost>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Run echo' }));
    const panel = within(screen.getByRole('region', { name: /^Run echo/ }));
    // The form's code loads on first use: wait for its field rather than for an earlier test to have loaded it.
    await panel.findByRole('textbox', { name: /^text/ });
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Run' })));
    expect(panel.getByText('Required.')).toBeTruthy();
    expect(host.sent('tools.call')).toEqual([]);
    fireEvent.change(panel.getByRole('textbox', { name: /^text/ }), { target: { value: 'hi' } });
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Run' })));
    expect(host.sent('tools.call')).toEqual([{ server: 'feature', tool: 'echo', arguments: { text: 'hi' }, requestId: expect.any(String) }]);
    expect(await panel.findByText('ran echo with {"text":"hi"}')).toBeTruthy();
  });

  it('explains a denied call instead of showing a raw error', async () => {
    const { host } = toolsHost([{ name: 'echo', description: 'Echo.' }]);
    host.handlers['tools.call'] = () => failure('CONSENT_DENIED', 'You denied this call.');
    render(
      <WithHost transport={host}>
        <ToolsPage />
      </WithHost>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Run echo' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Run' })));
    expect(screen.getByText('Not run')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('You denied this call.');
  });

  it('offers to start a stopped server instead of starting it behind the person\'s back', async () => {
    const stopped = { ...feature, state: { kind: 'stopped' as const } };
    const host = new ContractTransport({ 'servers.list': () => [stopped], 'registry.get': () => ({ path: '/x', text: '', problems: [], servers: [] }) });
    render(
      <WithHost transport={host}>
        <ToolsPage />
      </WithHost>,
    );
    // One line (issue #31, item 10), not a box: its state and what to do.
    const line = within(await screen.findByRole('list', { name: 'Servers not ready' })).getByRole('listitem');
    expect(within(line).getByText('Stopped')).toBeTruthy();
    expect(line.textContent).toContain('start it to see its tools.');
    expect(screen.getByRole('button', { name: 'Start feature' })).toBeTruthy();
    expect(host.sent('catalog.get')).toEqual([]);
  });
});

describe('CompletingInput', () => {
  it('asks the server for suggestions after typing pauses, and a suggestion fills the field', async () => {
    const host = new ContractTransport({
      'completion.complete': (p) => ({ values: ['1', '2', '3', '42'].filter((v) => v.startsWith(String((p.argument as { value: string }).value))) }),
    });
    let value = '';
    const { rerender } = render(
      <WithHost transport={host}>
        <CompletingInput server="feature" completionRef={{ type: 'ref/resource', uri: 'fixture://item/{id}' }} name="id" label="id" value={value} onChange={(v) => (value = v)} />
      </WithHost>,
    );
    fireEvent.focus(screen.getByRole('textbox', { name: 'id' }));
    const suggestions = await screen.findByRole('list', { name: 'Suggestions for id' }, { timeout: 2000 });
    expect(within(suggestions).getAllByRole('button').map((b) => b.textContent)).toEqual(['1', '2', '3', '42']);
    fireEvent.click(within(suggestions).getByRole('button', { name: '42' }));
    expect(value).toBe('42');
    rerender(
      <WithHost transport={host}>
        <CompletingInput server="feature" completionRef={{ type: 'ref/resource', uri: 'fixture://item/{id}' }} name="id" label="id" value="4" onChange={(v) => (value = v)} />
      </WithHost>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'id' }), { target: { value: '4' } });
    await waitFor(() => expect(host.sent('completion.complete').at(-1)).toMatchObject({ argument: { name: 'id', value: '4' } }), { timeout: 2000 });
  });
});
