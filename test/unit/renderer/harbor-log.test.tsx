// @vitest-environment happy-dom
/** #28 §1: Activity shows Harbor's own log through harborLog.read, filtered by server and level. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HarborLog } from '../../../renderer/src/features/activity/HarborLog';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

describe("Harbor's log in Activity", () => {
  it('shows the entries newest first, and asks again by server and lowest level', async () => {
    const host = new ContractTransport({
      'servers.list': () => [serverSummary('notes'), serverSummary('crashy')],
      'harborLog.read': (p) => ({
        entries:
          p.server === 'crashy'
            ? [{ time: '2026-12-07T09:00:00.000Z', level: 'error', area: 'servers', server: 'crashy', message: 'crashed 3 times; gave up', code: 'CONNECTION_CLOSED' }]
            : [
                { time: '2026-12-07T08:00:00.000Z', level: 'info', area: 'host', message: 'started' },
                { time: '2026-12-07T09:00:00.000Z', level: 'warn', area: 'servers', server: 'notes', message: 'list refresh failed' },
              ],
        unreadable: 1,
        path: '/data/logs/harbor.log',
      }),
    });
    render(
      <WithHost transport={host}>
        <HarborLog />
      </WithHost>,
    );
    const list = await screen.findByRole('list', { name: "Harbor's log entries" });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['2026-12-07 09:00:00warn notes list refresh failed', '2026-12-07 08:00:00info  started']);
    expect(screen.getByText('/data/logs/harbor.log')).toBeTruthy();
    expect(host.sent('harborLog.read')).toEqual([{ level: 'info' }]);

    await waitFor(() => expect(screen.getByRole('option', { name: 'crashy' })).toBeTruthy());
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: 'Log server' }), { target: { value: 'crashy' } }));
    await act(async () => fireEvent.change(screen.getByRole('combobox', { name: 'Lowest log level' }), { target: { value: 'error' } }));
    await waitFor(() => expect(host.sent('harborLog.read').at(-1)).toEqual({ level: 'error', server: 'crashy' }));
    await waitFor(() => expect(screen.getByText(/crashed 3 times; gave up/)).toBeTruthy());
  });
});
