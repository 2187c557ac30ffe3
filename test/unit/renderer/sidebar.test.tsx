// @vitest-environment happy-dom
/**
 * The side navigation folds into an icon rail: the toggle says what it does and which element it
 * controls, the entries keep their names (tooltips in the rail), the choice survives a remount (a
 * reload), and a narrow window starts as a rail until the person chooses.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sidebar } from '../../../renderer/src/app/Sidebar';
import { ContractTransport } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

const NAMES = ['Chat', 'Servers', 'Gallery', 'Tools', 'Resources', 'Prompts', 'Skills', 'Tasks', 'Activity', 'Settings'];

function renderSidebar() {
  return render(
    <WithHost transport={new ContractTransport({ 'servers.list': () => [] })}>
      <Sidebar current="chat" />
    </WithHost>,
  );
}

/** A window as narrow (or not) as the rail's media query asks. */
function windowIsNarrow(narrow: boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: narrow, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
}

beforeEach(() => {
  localStorage.clear();
  windowIsNarrow(false);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Sidebar', () => {
  it('collapses to an icon rail whose entries keep their names, and stays collapsed after a reload', () => {
    const first = renderSidebar();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const collapse = screen.getByRole('button', { name: 'Collapse navigation' });
    expect(collapse.getAttribute('aria-expanded')).toBe('true');
    expect(collapse.getAttribute('aria-controls')).toBe(nav.id);
    expect(within(nav).getByRole('link', { name: 'Tools' }).getAttribute('title')).toBeNull();

    fireEvent.click(collapse);
    const expand = screen.getByRole('button', { name: 'Expand navigation' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(NAMES);
    expect(links.map((l) => l.getAttribute('title'))).toEqual(NAMES);
    expect(localStorage.getItem('harbor.ui.nav.collapsed')).toBe('"rail"');

    first.unmount();
    renderSidebar();
    expect(screen.getByRole('button', { name: 'Expand navigation' }).getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Expand navigation' }));
    expect(screen.getByRole('button', { name: 'Collapse navigation' })).toBeTruthy();
    expect(localStorage.getItem('harbor.ui.nav.collapsed')).toBe('"full"');
  });

  it('is a rail by default in a narrow window, and the person can still open it', () => {
    windowIsNarrow(true);
    renderSidebar();
    fireEvent.click(screen.getByRole('button', { name: 'Expand navigation' }));
    expect(screen.getByRole('button', { name: 'Collapse navigation' }).getAttribute('aria-expanded')).toBe('true');
  });
});
