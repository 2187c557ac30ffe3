// @vitest-environment happy-dom
/** The command palette's matcher, its command registry, the shortcuts and the palette itself over a contract-checked Host. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerCommands, registeredCommands, type Command } from '../../../renderer/src/features/palette/command-registry';
import { PaletteHost } from '../../../renderer/src/features/palette/PaletteHost';
import { PaletteIndex, PER_GROUP, type PaletteItem } from '../../../renderer/src/features/palette/palette-search';
import { closePalette } from '../../../renderer/src/features/palette/palette-state';
import { readPersisted } from '../../../renderer/src/lib/persisted';
import { bindShortcuts, formatShortcut, isTypingTarget } from '../../../renderer/src/lib/shortcuts';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(() => {
  act(() => closePalette());
  cleanup();
  localStorage.clear();
  window.location.hash = '';
});

const item = (id: string, group: PaletteItem['group'], title: string, detail?: string): PaletteItem => ({ id, group, title, ...(detail ? { detail } : {}), run: () => {} });

describe('the palette index', () => {
  const items = [
    item('c1', 'Conversations', 'Plan the vegetable garden'),
    item('t1', 'Tools', 'echo', 'feature · Echo the text back.'),
    item('t2', 'Tools', 'mutate', 'feature · Change the description of the echo tool.'),
    item('s1', 'Servers', 'feature'),
    item('v1', 'Views', 'Go to Tools'),
  ];

  it('matches by prefix and forgives a typo, best match first', () => {
    const index = new PaletteIndex(items);
    expect(index.find('eco').flatMap((s) => s.items.map((i) => i.id))).toEqual(['t1', 't2']);
    expect(index.find('vegtable gardn').flatMap((s) => s.items.map((i) => i.id))).toEqual(['c1']);
    expect(index.find('zebra')).toEqual([]);
  });

  it('groups in the palette order, whatever order the items came in', () => {
    expect(new PaletteIndex(items).find('').map((s) => s.group)).toEqual(['Servers', 'Tools', 'Conversations', 'Views']);
    expect(new PaletteIndex(items).find('tool').map((s) => s.group)).toEqual(['Tools', 'Views']);
  });

  it(`shows at most ${PER_GROUP} items of a group`, () => {
    const many = Array.from({ length: 20 }, (_, i) => item(`t${i}`, 'Tools', `tool number ${i}`));
    expect(new PaletteIndex(many).find('tool')[0]!.items).toHaveLength(PER_GROUP);
  });
});

describe('registerCommands', () => {
  const command = (id: string, title = id): Command => ({ id, title, group: 'Commands', run: () => {} });

  it('adds commands and its return value removes exactly them', () => {
    const before = registeredCommands().length;
    const off = registerCommands([command('test.a'), command('test.b')]);
    expect(registeredCommands().map((c) => c.id)).toEqual(expect.arrayContaining(['test.a', 'test.b']));
    off();
    expect(registeredCommands()).toHaveLength(before);
  });

  it('a later registration of an id replaces the earlier, and the earlier one\'s removal leaves it', () => {
    const offFirst = registerCommands([command('test.same', 'First')]);
    const offSecond = registerCommands([command('test.same', 'Second')]);
    expect(registeredCommands().filter((c) => c.id === 'test.same').map((c) => c.title)).toEqual(['Second']);
    offFirst();
    expect(registeredCommands().find((c) => c.id === 'test.same')?.title).toBe('Second');
    offSecond();
    expect(registeredCommands().find((c) => c.id === 'test.same')).toBeUndefined();
  });
});

describe('shortcuts', () => {
  it('read as the platform writes them', () => {
    expect(formatShortcut('$mod+KeyK', false)).toBe('Ctrl+K');
    expect(formatShortcut('$mod+Shift+KeyO', false)).toBe('Ctrl+Shift+O');
    expect(formatShortcut('$mod+Digit1', true)).toBe('⌘1');
  });

  it('know typing from other keys', () => {
    const input = document.createElement('input');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const inside = editable.appendChild(document.createElement('span'));
    expect([input, document.createElement('textarea'), inside].map(isTypingTarget)).toEqual([true, true, true]);
    expect([checkbox, document.createElement('button'), document.body].map(isTypingTarget)).toEqual([false, false, false]);
  });

  it('fire outside text fields only, except the ones that always fire', () => {
    const outside = vi.fn();
    const always = vi.fn();
    const off = bindShortcuts(window, { always: { 'Control+KeyK': always }, outsideText: { 'Control+Digit2': outside } });
    const input = document.body.appendChild(document.createElement('input'));
    try {
      const press = (target: EventTarget, code: string, key: string) =>
        target.dispatchEvent(new KeyboardEvent('keydown', { code, key, ctrlKey: true, bubbles: true, cancelable: true }));
      press(input, 'Digit2', '2');
      expect(outside).not.toHaveBeenCalled();
      press(input, 'KeyK', 'k');
      expect(always).toHaveBeenCalledTimes(1);
      expect(press(document.body, 'Digit2', '2')).toBe(false); // handled: the browser's own action is prevented
      expect(outside).toHaveBeenCalledTimes(1);
    } finally {
      off();
      input.remove();
    }
  });
});

describe('the palette', () => {
  const host = () =>
    new ContractTransport({
      'servers.list': () => [serverSummary('feature'), serverSummary('stopped', { state: { kind: 'stopped' } })],
      'catalog.get': ({ name }) => ({
        server: name,
        tools: [{ name: 'echo', description: 'Echo the text back.', inputSchema: { type: 'object' } }],
        resources: [{ uri: 'fixture://hello', name: 'Hello' }],
        resourceTemplates: [],
        prompts: [{ name: 'greet', description: 'Say hello.' }],
      }),
      'conversations.list': () => [{ id: 'c1', title: 'Plan the vegetable garden', createdAt: 1, updatedAt: 2, turnCount: 1 }],
    });

  async function openPalette() {
    render(
      <WithHost transport={host()}>
        <PaletteHost />
      </WithHost>,
    );
    fireEvent.keyDown(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
    // The palette's code loads the first time it opens (a cold import: slower on a busy machine).
    const dialog = await screen.findByRole('dialog', { name: 'Command palette' }, { timeout: 10_000 });
    const box = within(dialog).getByRole('combobox');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: /^echo/ })).toBeTruthy());
    return { dialog, box };
  }

  it('lists every kind, each command with its shortcut', async () => {
    const { dialog } = await openPalette();
    const groups = within(dialog)
      .getAllByRole('group')
      .map((g) => g.getAttribute('aria-labelledby'))
      .map((id) => document.getElementById(id!)!.textContent);
    expect(groups).toEqual(['Servers', 'Tools', 'Resources', 'Prompts', 'Conversations', 'Settings sections', 'Views', 'Commands']);
    expect(within(dialog).getByRole('option', { name: /^New chat/ }).textContent).toContain('Ctrl+N');
    // A stopped server is listed, but not started to list its catalog.
    expect(within(dialog).getByRole('option', { name: /^stopped/ })).toBeTruthy();
    expect(within(dialog).getAllByRole('option', { name: /^echo/ })).toHaveLength(1);
  });

  it('moves the highlight with the arrow keys and opens a tool\'s run form with Enter', async () => {
    const { dialog, box } = await openPalette();
    fireEvent.change(box, { target: { value: 'echo' } });
    await waitFor(() => expect(within(dialog).getAllByRole('option')[0]!.getAttribute('aria-selected')).toBe('true'));
    const options = within(dialog).getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(box, { key: 'End' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options.at(-1)!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.hash).toBe('#/tools');
    expect(readPersisted('tools.selected', null)).toEqual({ server: 'feature', name: 'echo' });
  });

  it('opens a resource, a prompt and a server by click', async () => {
    for (const [query, name, hash, key, value] of [
      ['hello', /^Hello/, '#/resources', 'resources.selected', { server: 'feature', name: 'fixture://hello' }],
      ['greet', /^greet/, '#/prompts', 'prompts.selected', { server: 'feature', name: 'greet' }],
    ] as const) {
      const { dialog, box } = await openPalette();
      fireEvent.change(box, { target: { value: query } });
      fireEvent.click(within(dialog).getByRole('option', { name }));
      expect(window.location.hash).toBe(hash);
      expect(readPersisted(key, null)).toEqual(value);
      cleanup();
    }
    const { dialog, box } = await openPalette();
    fireEvent.change(box, { target: { value: 'stopped' } });
    fireEvent.click(within(dialog).getAllByRole('option', { name: /^stopped/ })[0]!);
    expect(window.location.hash).toBe('#/servers/stopped');
  });

  it('toggles the theme through its registered command', async () => {
    const { dialog, box } = await openPalette();
    document.documentElement.dataset.theme = 'dark';
    fireEvent.change(box, { target: { value: 'theme' } });
    fireEvent.click(within(dialog).getByRole('option', { name: /^Toggle light\/dark theme/ }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem('harbor.theme')).toBe('light');
    delete document.documentElement.dataset.theme;
  });

  it('Escape closes it', async () => {
    const { dialog } = await openPalette();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
