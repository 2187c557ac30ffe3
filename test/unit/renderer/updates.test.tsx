// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../../preload/contract';
import { UpdateBanner } from '../../../renderer/src/features/updates/UpdateBanner';
import { UpdatesPanel, describeUpdate } from '../../../renderer/src/features/updates/UpdatesPanel';
import { ContractTransport } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

afterEach(cleanup);

const base: UpdateStatus = { state: 'idle', currentVersion: '0.1.0', autoUpdate: true };

function desktop(initial: UpdateStatus = base, options: { restarting?: boolean } = {}) {
  let status = initial;
  const host = new ContractTransport({
    'app.updateStatus': () => status,
    'app.checkForUpdates': () => (status = { ...status, state: 'checking' }),
    'app.setAutoUpdate': (p) => (status = { ...status, autoUpdate: p.enabled === true }),
    'app.installUpdate': () => ({ restarting: options.restarting ?? true }),
  });
  return host;
}

describe('Settings → Updates', () => {
  it('in browser mode says where updates come from, and offers nothing to click', async () => {
    const host = desktop({ state: 'unsupported', currentVersion: '0.1.0', autoUpdate: false, message: 'Harbor updates itself in the desktop app; here, update your Harbor install instead.' });
    render(
      <WithHost transport={host}>
        <UpdatesPanel />
      </WithHost>,
    );
    const panel = await screen.findByRole('region', { name: 'Updates' });
    expect(within(panel).getByRole('status').textContent).toBe('Harbor updates itself in the desktop app; here, update your Harbor install instead.');
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(within(panel).queryByRole('checkbox')).toBeNull();
  });

  it('checks on request, follows the download live, and restarts into a ready update', async () => {
    const host = desktop();
    render(
      <WithHost transport={host}>
        <UpdatesPanel />
      </WithHost>,
    );
    const panel = await screen.findByRole('region', { name: 'Updates' });
    expect(within(panel).getByRole('status').textContent).toBe('You have Harbor 0.1.0.');
    fireEvent.click(within(panel).getByRole('button', { name: 'Check now' }));
    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('Checking for updates…'));
    expect(within(panel).getByRole('button', { name: 'Check now' })).toHaveProperty('disabled', true);

    act(() => host.emit('app.update', { ...base, state: 'downloading', version: '0.2.0', percent: 42.7 }));
    expect(within(panel).getByRole('status').textContent).toBe('Downloading Harbor 0.2.0 (42%)…');
    expect(within(panel).getByRole('progressbar', { name: 'Download progress' }).getAttribute('value')).toBe('42.7');

    act(() => host.emit('app.update', { ...base, state: 'ready', version: '0.2.0' }));
    expect(within(panel).getByRole('status').textContent).toContain('Harbor 0.2.0 is ready.');
    fireEvent.click(within(panel).getByRole('button', { name: 'Restart to update' }));
    await waitFor(() => expect(host.sent('app.installUpdate')).toHaveLength(1));
  });

  it('turns automatic updates off and on through the Host', async () => {
    const host = desktop();
    render(
      <WithHost transport={host}>
        <UpdatesPanel />
      </WithHost>,
    );
    const box = await screen.findByRole('checkbox', { name: /Check for updates automatically/ });
    expect(box).toHaveProperty('checked', true);
    fireEvent.click(box);
    await waitFor(() => expect(box).toHaveProperty('checked', false));
    expect(host.sent('app.setAutoUpdate')).toEqual([{ enabled: false }]);
  });

  it('an event that arrives before the first answer is not overwritten by the older answer', async () => {
    let answer!: (status: UpdateStatus) => void;
    const host = new ContractTransport({ 'app.updateStatus': () => new Promise<UpdateStatus>((resolve) => (answer = resolve)) });
    render(
      <WithHost transport={host}>
        <UpdatesPanel />
      </WithHost>,
    );
    await waitFor(() => expect(host.sent('app.updateStatus')).toHaveLength(1));
    act(() => host.emit('app.update', { ...base, state: 'ready', version: '0.3.0' }));
    await act(async () => answer(base));
    expect(screen.getByRole('status').textContent).toContain('Harbor 0.3.0 is ready.');
  });

  it('says something for every state', () => {
    const states: UpdateStatus['state'][] = ['unsupported', 'idle', 'checking', 'up-to-date', 'available', 'downloading', 'ready', 'error'];
    const sentences = states.map((state) => describeUpdate({ ...base, state, version: '9.9.9' }));
    expect(new Set(sentences).size).toBe(states.length);
    expect(describeUpdate({ ...base, state: 'unsupported', message: 'Not in this build.' })).toBe('Not in this build.');
    expect(describeUpdate({ ...base, state: 'error', message: 'offline' })).toBe('Could not update: offline.');
    expect(describeUpdate({ ...base, state: 'up-to-date' })).toBe('Harbor 0.1.0 is the newest version.');
  });
});

describe('update banner', () => {
  it('appears once an update is ready, hides on "Later" until a newer one is ready, and restarts on request', async () => {
    const host = desktop({ ...base, state: 'downloading', version: '0.2.0', percent: 10 });
    render(
      <WithHost transport={host}>
        <UpdateBanner />
      </WithHost>,
    );
    await waitFor(() => expect(host.sent('app.updateStatus')).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();

    act(() => host.emit('app.update', { ...base, state: 'ready', version: '0.2.0' }));
    expect(screen.getByRole('status').textContent).toContain('Harbor 0.2.0 is ready to install.');
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('status')).toBeNull();

    act(() => host.emit('app.update', { ...base, state: 'ready', version: '0.3.0' }));
    expect(screen.getByRole('status').textContent).toContain('Harbor 0.3.0 is ready to install.');
    fireEvent.click(screen.getByRole('button', { name: 'Restart now' }));
    await waitFor(() => expect(host.sent('app.installUpdate')).toHaveLength(1));
  });

  it('says so when the restart does not happen', async () => {
    const host = desktop({ ...base, state: 'ready', version: '0.2.0' }, { restarting: false });
    render(
      <WithHost transport={host}>
        <UpdateBanner />
      </WithHost>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Restart now' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('could not restart'));
  });
});
