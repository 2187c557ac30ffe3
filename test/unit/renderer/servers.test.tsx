// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApi, type ServerSummary, type Transport } from '../../../preload/contract';
import { ServicesContext } from '../../../renderer/src/app/services';
import { ServerList } from '../../../renderer/src/features/servers/ServerList';
import { ServersPage } from '../../../renderer/src/features/servers/ServersPage';
import { ActivityLog } from '../../../renderer/src/features/activity/activity-log';

afterEach(cleanup);

const notes: ServerSummary = {
  name: 'notes',
  transport: 'stdio',
  enabled: true,
  trusted: false,
  target: 'node server.js',
  state: { kind: 'ready' },
  counts: { tools: 3, resources: 1, resourceTemplates: 0, prompts: 1 },
};

describe('ServerList', () => {
  it('shows a loading state', () => {
    render(<ServerList state={{ status: 'loading' }} />);
    expect(screen.getByRole('status').textContent).toContain('Loading servers');
  });

  it('shows an error result by its message and code, never [object Object]', () => {
    render(
      <ServerList
        state={{ status: 'error', error: { code: 'CONFIG_IO', message: 'Cannot read /x/harbor.json: permission denied.' } }}
        onRetry={() => undefined}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Cannot read /x/harbor.json: permission denied.');
    expect(alert.textContent).toContain('CONFIG_IO');
    expect(alert.textContent).not.toContain('[object Object]');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('still shows a sentence when the error arrived in the wrong shape', () => {
    const malformed = { code: 'INTERNAL', message: { nested: true } } as unknown as { code: string; message: string };
    render(<ServerList state={{ status: 'error', error: malformed }} />);
    expect(screen.getByRole('alert').textContent).not.toContain('[object Object]');
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong');
  });

  it('shows an empty state', () => {
    render(<ServerList state={{ status: 'ready', value: [] }} />);
    expect(screen.getByText('No servers configured')).toBeTruthy();
  });

  it('lists each server with its transport, target and state badge', () => {
    const broken: ServerSummary = {
      ...notes,
      name: 'broken',
      state: { kind: 'error', code: 'SPAWN_FAILED', message: 'Cannot start "nope": not found on PATH.', stderrTail: 'boom' },
    };
    render(
      <Services>
        <ServerList state={{ status: 'ready', value: [notes, broken] }} />
      </Services>,
    );
    const list = screen.getByRole('list', { name: 'Servers' });
    expect(list.querySelectorAll(':scope > li')).toHaveLength(2);
    const first = within(screen.getByRole('article', { name: 'notes' }));
    expect(first.getByText('node server.js')).toBeTruthy();
    expect(first.getByText('stdio (local process)')).toBeTruthy();
    expect(first.getByText('Ready')).toBeTruthy();
    expect(first.getByRole('button', { name: 'Restart notes' })).toBeTruthy();
    expect(first.getByRole('button', { name: 'Stop notes' })).toBeTruthy();
    const second = within(screen.getByRole('article', { name: 'broken' }));
    expect(second.getByText('Error')).toBeTruthy();
    expect(second.getByText('Cannot start "nope": not found on PATH.')).toBeTruthy();
    expect(second.getByRole('button', { name: 'Start broken' })).toBeTruthy();
    expect(second.queryByRole('button', { name: 'Stop broken' })).toBeNull();
  });
});

describe('ServersPage', () => {
  it('refetches the list when the Host says a server changed', async () => {
    const host = new InMemoryHost([]);
    render(
      <Services transport={host}>
        <ServersPage />
      </Services>,
    );
    expect(await screen.findByText('No servers configured')).toBeTruthy();
    host.servers = [notes];
    await act(async () => host.emit('servers.changed', { name: 'notes', reason: 'config' }));
    expect(await screen.findByRole('heading', { name: 'notes' })).toBeTruthy();
    expect(host.calls.filter((c) => c === 'servers.list')).toHaveLength(2);
  });

  it('shows the message of an {ok:false} result', async () => {
    const host = new InMemoryHost([]);
    host.failWith = { code: 'CONFIG_INVALID', message: 'harbor.json has problems: mcpServers.x.args[1]: expected string' };
    render(
      <Services transport={host}>
        <ServersPage />
      </Services>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('mcpServers.x.args[1]: expected string');
  });
});

/** The contract's Transport answered in memory: the page under test talks to it through buildApi. */
class InMemoryHost implements Transport {
  calls: string[] = [];
  failWith: { code: string; message: string } | undefined;
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();
  constructor(public servers: ServerSummary[]) {}

  async invoke(command: string): Promise<unknown> {
    this.calls.push(command);
    if (this.failWith) return { ok: false, error: this.failWith };
    if (command === 'servers.list') return { ok: true, value: this.servers };
    return { ok: false, error: { code: 'UNKNOWN_COMMAND', message: command } };
  }

  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: string, payload: unknown): void {
    for (const listener of this.listeners) listener(event, payload);
  }
}

function Services({ transport = new InMemoryHost([]), children }: { transport?: Transport; children: React.ReactNode }) {
  const api = buildApi(transport);
  return <ServicesContext.Provider value={{ api, activity: new ActivityLog(api) }}>{children}</ServicesContext.Provider>;
}
