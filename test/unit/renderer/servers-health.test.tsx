// @vitest-environment happy-dom
/**
 * The servers' health outside the Servers page: the navigation's indicator (useServerHealth),
 * a notification when a server fails or starts waiting for the person, the notifications
 * themselves, the error box every page uses, and the Activity entry for a failed launch.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerSummary } from '../../../preload/contract';
import { buildApi } from '../../../preload/contract';
import { ActivityLog } from '../../../renderer/src/features/activity/activity-log';
import { ServerAlerts } from '../../../renderer/src/features/servers/ServerAlerts';
import { ServerHealthIndicator } from '../../../renderer/src/features/servers/ServerHealthIndicator';
import { summarizeHealth } from '../../../renderer/src/features/servers/server-health';
import { useServerHealth } from '../../../renderer/src/features/servers/use-server-health';
import { ErrorMessage } from '../../../renderer/src/ui/ErrorMessage';
import { dismiss, notify, Toasts } from '../../../renderer/src/ui/Toasts';
import { toastSnapshot } from '../../../renderer/src/ui/toast-store';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(() => {
  cleanup();
  for (const toast of toastSnapshot()) dismiss(toast.id);
  vi.useRealTimers();
});

const failed = (name: string, code: 'SPAWN_FAILED' | 'CONSENT_DENIED' | 'AUTH_REQUIRED' = 'SPAWN_FAILED', message = `Harbor could not find "${name}" on PATH (/usr/bin).`): ServerSummary =>
  serverSummary(name, { target: `${name} --serve`, state: { kind: 'error', code, message, stderrTail: '' } });

describe('useServerHealth', () => {
  it('counts failed servers apart from those waiting for a permission or a sign-in; disabled ones do not count', () => {
    expect(summarizeHealth([serverSummary('ok'), failed('a'), failed('b', 'CONSENT_DENIED'), failed('c', 'AUTH_REQUIRED'), { ...failed('d'), enabled: false }])).toEqual({
      failed: ['a'],
      attention: [
        { name: 'b', reason: 'consent' },
        { name: 'c', reason: 'sign-in' },
      ],
    });
    expect(summarizeHealth([serverSummary('ok')])).toEqual({ failed: [], attention: [] });
  });

  it('follows the Host live: the indicator appears, counts and links to the server, and goes once all is well', async () => {
    let list: ServerSummary[] = [serverSummary('notes')];
    const host = new ContractTransport({ 'servers.list': () => list });
    function Counts() {
      const health = useServerHealth();
      return <output>{`${health.failed.length}/${health.attention.length}`}</output>;
    }
    render(
      <WithHost transport={host}>
        <ServerHealthIndicator />
        <Counts />
      </WithHost>,
    );
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('0/0'));
    expect(screen.queryByRole('link')).toBeNull();
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'state', summary: failed('notes') }));
    const link = screen.getByRole('link', { name: '1 server failed' });
    expect(link.getAttribute('href')).toBe('#/servers/notes');
    expect(link.getAttribute('title')).toBe('1 server failed');
    list = [failed('notes'), failed('remote', 'AUTH_REQUIRED')];
    await act(async () => host.emit('servers.changed', { name: 'remote', reason: 'config', summary: failed('remote', 'AUTH_REQUIRED') }));
    await waitFor(() => expect(screen.getByRole('link', { name: '1 server failed, 1 needs your attention' })).toBeTruthy());
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'state', summary: serverSummary('notes') }));
    await act(async () => host.emit('servers.changed', { name: 'remote', reason: 'removed' }));
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('0/0');
    // One list fetch for everything that reads the servers' state.
    expect(host.sent('servers.list').length).toBeLessThanOrEqual(2);
  });
});

describe('notifications about servers', () => {
  function renderAlerts(list: ServerSummary[]) {
    const host = new ContractTransport({ 'servers.list': () => list });
    render(
      <WithHost transport={host}>
        <ServerAlerts />
        <Toasts />
      </WithHost>,
    );
    return host;
  }
  const region = () => screen.getByRole('region', { name: 'Notifications' });

  it('says so when a server fails, with its fix in short and a link to it; closes once it is ready', async () => {
    const host = renderAlerts([failed('old'), serverSummary('notes')]);
    await waitFor(() => expect(host.sent('servers.list')).toHaveLength(1));
    // Already failed when the window opened: the indicator says so, not a notification.
    expect(region().textContent).toBe('');
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'state', summary: { ...serverSummary('notes'), state: { kind: 'starting' } } }));
    expect(region().textContent).toBe('');
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'state', summary: failed('notes') }));
    const toast = within(region());
    expect(toast.getByText('notes could not start')).toBeTruthy();
    expect(toast.getByText('“notes” was not found')).toBeTruthy();
    expect(toast.getByRole('link', { name: 'Show' }).getAttribute('href')).toBe('#/servers/notes');
    // The same failure again is no news; a recovery closes it.
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'state', summary: failed('notes') }));
    expect(toast.getAllByText('notes could not start')).toHaveLength(1);
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'state', summary: serverSummary('notes') }));
    expect(region().textContent).toBe('');
  });

  it('says so when a server waits for a permission or a sign-in', async () => {
    const host = renderAlerts([serverSummary('local'), serverSummary('remote', { transport: 'http' })]);
    await waitFor(() => expect(host.sent('servers.list')).toHaveLength(1));
    await act(async () => host.emit('servers.changed', { name: 'local', reason: 'state', summary: failed('local', 'CONSENT_DENIED', 'You did not allow launching "local".') }));
    await act(async () => host.emit('servers.changed', { name: 'remote', reason: 'state', summary: { ...failed('remote', 'AUTH_REQUIRED', 'remote needs a sign-in.'), transport: 'http' } }));
    // Denied is not "waiting": the notification says it was refused, in the Host's words, and how to be asked again.
    expect(within(region()).getByText('local was not allowed to start')).toBeTruthy();
    expect(within(region()).getByText(/You did not allow launching "local"\. Start it from its page to be asked again\./)).toBeTruthy();
    expect(within(region()).queryByText(/waiting for your permission/)).toBeNull();
    expect(within(region()).getByText('remote needs you to sign in')).toBeTruthy();
  });
});

describe('Toasts', () => {
  it('shows, replaces by key, closes by hand or after a while (not while pointed at)', () => {
    vi.useFakeTimers();
    render(<Toasts />);
    act(() => {
      notify({ title: 'Saved', tone: 'ok', key: 'k' });
    });
    act(() => {
      notify({ title: 'Saved again', tone: 'ok', key: 'k' });
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(within(region).queryByText('Saved')).toBeNull();
    expect(within(region).getByText('Saved again')).toBeTruthy();
    const sticky = within(region).getByText('Saved again').closest('.toast')!;
    fireEvent.mouseEnter(sticky);
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(within(region).getByText('Saved again')).toBeTruthy();
    fireEvent.mouseLeave(sticky);
    act(() => {
      vi.advanceTimersByTime(7_000);
    });
    expect(within(region).queryByText('Saved again')).toBeNull();

    act(() => {
      notify({ title: 'Broken', tone: 'error', durationMs: 0 });
    });
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss: Broken' }));
    expect(within(region).queryByText('Broken')).toBeNull();
  });
});

describe('ErrorMessage', () => {
  it('says the message once, keeps the code and the detail under Details, and offers Try again', () => {
    let retried = 0;
    render(<ErrorMessage error={{ code: 'CONFIG_IO', message: 'Cannot read /x/harbor.json: permission denied.', detail: 'EACCES: permission denied' }} onRetry={() => retried++} />);
    const alert = screen.getByRole('alert');
    expect(within(alert).getAllByText('Cannot read /x/harbor.json: permission denied.')).toHaveLength(1);
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('CONFIG_IO')).toBeTruthy();
    expect(within(details).getByText('EACCES: permission denied')).toBeTruthy();
    expect(alert.querySelector('.error-message__title')!.textContent).not.toContain('CONFIG_IO');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retried).toBe(1);
  });

  it('with a headline and a fix, the Host\'s message moves under Details', () => {
    render(<ErrorMessage error={{ code: 'SPAWN_FAILED', message: 'The long message.' }} title="It was not found" fix="Give its full path." />);
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('.error-message__title')!.textContent).toBe('It was not found');
    expect(alert.querySelector('.error-message__fix')!.textContent).toBe('Give its full path.');
    expect(alert.querySelector('details')!.textContent).toContain('The long message.');
  });
});

describe('the Activity entry for a failed launch', () => {
  it('lists failures from before the window opened and live ones, once each, in time order', async () => {
    const host = new ContractTransport({
      'servers.launchFailures': () => [{ seq: 1, at: 1_000, name: 'early', code: 'SPAWN_FAILED', message: 'Harbor could not find "x".', stderrTail: '' }],
    });
    const log = new ActivityLog(buildApi(host));
    host.emit('servers.launchFailed', { seq: 2, at: 5_000, name: 'later', code: 'CONSENT_DENIED', message: 'You did not allow launching "later".', stderrTail: '' });
    // A failed state is not listed twice (the launch failure says it).
    host.emit('servers.changed', { name: 'later', reason: 'state', summary: failed('later', 'CONSENT_DENIED') });
    log.subscribe(() => undefined);
    await waitFor(() => expect(log.snapshot()).toHaveLength(2));
    host.emit('servers.launchFailed', { seq: 2, at: 5_000, name: 'later', code: 'CONSENT_DENIED', message: 'You did not allow launching "later".', stderrTail: '' });
    expect(log.snapshot().map((e) => `${e.server} ${e.text}`)).toEqual([
      'later was not started: it waits for your permission (You did not allow launching "later".)',
      'early could not start: Harbor could not find "x".',
    ]);
  });
});
