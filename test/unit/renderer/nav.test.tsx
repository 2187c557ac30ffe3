// @vitest-environment happy-dom
/** The main navigation: an icon beside every entry, the entries' names (what scripts and tests find them by) unchanged. */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Nav } from '../../../renderer/src/app/Nav';
import { ContractTransport } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

afterEach(cleanup);

describe('Nav', () => {
  it('shows an icon beside each entry, hidden from assistive technology, and keeps the entries\' names', () => {
    render(
      <WithHost transport={new ContractTransport({ 'servers.list': () => [] })}>
        <Nav current="tools" />
      </WithHost>,
    );
    const links = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Chat', 'Servers', 'Gallery', 'Tools', 'Resources', 'Prompts', 'Skills', 'Tasks', 'Activity', 'Settings']);
    for (const link of links) {
      const icon = link.querySelector('svg');
      expect(icon, link.textContent ?? '').not.toBeNull();
      expect(icon!.getAttribute('aria-hidden')).toBe('true');
    }
    // Each page has its own icon.
    expect(new Set(links.map((l) => l.querySelector('svg')!.getAttribute('class'))).size).toBe(links.length);
    expect(screen.getByRole('link', { name: 'Tools' }).getAttribute('aria-current')).toBe('page');
  });
});
