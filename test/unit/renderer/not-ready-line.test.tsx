// @vitest-environment happy-dom
// Issue #31, item 10: a server that is not ready is one line on Tools, Resources and Prompts —
// its name, its state, its real error (kept beside a later launch question) or that it waits for
// permission, and one small action — the same component for the three pages.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentRequest, ServerSummary } from '../../../preload/contract';
import { NotReady } from '../../../renderer/src/features/catalog/NotReady';
import { launchSheet } from '../../../renderer/src/features/consent/launch-sheet-store';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

const crash = { code: 'CONNECTION_CLOSED' as const, message: '"notes" closed the connection while connecting (exited with code 1).', stderrTail: 'booting\nfatal: missing config FOO', at: 1 };
const launchQuestion = (server: string): ConsentRequest => ({
  id: `q-${server}`,
  kind: 'launch',
  server,
  trusted: false,
  deadline: Date.now() + 60_000,
  options: ['once', 'always', 'deny'],
  launch: { commandLine: `node ${server}.mjs`, envNames: [] },
});

function renderLines(servers: ServerSummary[], pending: ConsentRequest[] = []) {
  const host = new ContractTransport({ 'consent.pending': () => pending, 'servers.restart': (p) => servers.find((s) => s.name === (p as { name: string }).name)! });
  render(
    <WithHost transport={host}>
      <NotReady servers={servers} noun="tools" />
    </WithHost>,
  );
  const list = screen.getByRole('list', { name: 'Servers not ready' });
  const line = (name: string) => within(list).getAllByRole('listitem').find((li) => li.querySelector('strong')?.textContent === name)!;
  return { host, list, line };
}

describe('NotReady: one line per server', () => {
  it('a failed server: its state, its headline and its last output line, Start and Details — no box', () => {
    const { list, line } = renderLines([serverSummary('notes', { state: { kind: 'error', code: 'CONNECTION_CLOSED', message: crash.message, stderrTail: crash.stderrTail } })]);
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    const notes = within(line('notes'));
    expect(notes.getByText('Failed')).toBeTruthy();
    expect(line('notes').textContent).toContain('It exited: fatal: missing config FOO (');
    expect(notes.getByRole('button', { name: 'Start notes' })).toBeTruthy();
    expect(notes.getByRole('link', { name: 'Details of notes' }).getAttribute('href')).toBe('#/servers/notes');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a denied server says it was denied and how to allow it, with the real error it had before', () => {
    const { line } = renderLines([
      serverSummary('notes', { state: { kind: 'error', code: 'CONSENT_DENIED', message: 'You did not allow launching "notes".', stderrTail: '' }, lastError: crash }),
    ]);
    const text = line('notes').textContent!;
    expect(within(line('notes')).getByText('Denied')).toBeTruthy();
    expect(text).toContain('You did not allow launching "notes".');
    expect(text).toContain('Last error: fatal: missing config FOO');
    expect(text).toContain('Start it to be asked again');
    expect(text).not.toMatch(/waiting for your permission/i);
    expect(within(line('notes')).getByRole('button', { name: 'Start notes' })).toBeTruthy();
  });

  it('a server whose launch question waits says so, keeps its last error, and Review brings the question back', async () => {
    launchSheet.putAside();
    const { line } = renderLines([serverSummary('notes', { state: { kind: 'starting' }, lastError: crash }), serverSummary('other', { state: { kind: 'starting' } })], [launchQuestion('notes')]);
    await waitFor(() => expect(within(line('notes')).getByText('Waiting')).toBeTruthy());
    expect(line('notes').textContent).toContain('waiting for your permission to start. Last error: fatal: missing config FOO');
    // The other one is only starting: no question of its own, nothing to do but wait.
    expect(within(line('other')).getByText('Starting')).toBeTruthy();
    expect(within(line('other')).queryByRole('button')).toBeNull();
    fireEvent.click(within(line('notes')).getByRole('button', { name: 'Review the launch of notes' }));
    expect(launchSheet.snapshot().aside).toBe(false);
  });

  it('Start on a stopped server sends servers.restart (the Host asks again for a denied launch)', async () => {
    const { host, line } = renderLines([serverSummary('notes', { state: { kind: 'stopped' } })]);
    expect(line('notes').textContent).toContain('start it to see its tools.');
    await act(async () => fireEvent.click(within(line('notes')).getByRole('button', { name: 'Start notes' })));
    expect(host.sent('servers.restart')).toEqual([{ name: 'notes' }]);
  });

  it('shows nothing when every server is ready', () => {
    const host = new ContractTransport({ 'consent.pending': () => [] });
    const { container } = render(
      <WithHost transport={host}>
        <NotReady servers={[]} noun="tools" />
      </WithHost>,
    );
    expect(container.textContent).toBe('');
  });
});
