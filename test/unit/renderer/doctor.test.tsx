// @vitest-environment happy-dom
/**
 * The connection doctor on a server's card: Diagnose runs `servers.diagnose` (the steps of
 * `harbor doctor`) and shows each step's status, message and fix; Run again asks again.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReportData } from '../../../preload/contract';
import { ServerDetail } from '../../../renderer/src/features/servers/ServerDetail';
import { ContractTransport } from '../../helpers/contract-transport';
import { serverSummary } from '../../helpers/server-summary';
import { WithHost } from './with-host';

afterEach(cleanup);

const report: DoctorReportData = {
  server: 'notes',
  ok: false,
  checks: [
    { id: 'registry', status: 'ok', message: 'local (stdio) server, the entry is valid' },
    { id: 'command', status: 'fail', message: '"notes-mcp" was not found on the PATH Harbor gives servers (searched: /usr/bin)', fix: 'Install "notes-mcp", or put its full path in "command".', code: 'SPAWN_FAILED' },
    { id: 'handshake', status: 'skip', message: 'not tried: it cannot start or be reached as it is (see above)' },
  ],
};

describe('Diagnose on a server card', () => {
  it('shows each step of the doctor with its status, message and fix, and runs again on demand', async () => {
    const asked: unknown[] = [];
    const host = new ContractTransport({
      'servers.diagnose': (request) => {
        asked.push(request);
        return report;
      },
    });
    render(
      <WithHost transport={host}>
        <ServerDetail server={serverSummary('notes')} />
      </WithHost>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Diagnose notes' }));
    const panel = await screen.findByRole('region', { name: 'Diagnosis of notes' });
    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('Problems found: see the failed steps and their fixes.'));
    const steps = within(panel).getAllByRole('listitem').map((li) => li.textContent);
    expect(steps).toEqual([
      'OK registrylocal (stdio) server, the entry is valid',
      'Failed command"notes-mcp" was not found on the PATH Harbor gives servers (searched: /usr/bin)Fix: Install "notes-mcp", or put its full path in "command".',
      'Skipped handshakenot tried: it cannot start or be reached as it is (see above)',
    ]);
    expect(asked).toEqual([{ name: 'notes' }]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Run again' }));
    await waitFor(() => expect(asked).toHaveLength(2));
  });
});
