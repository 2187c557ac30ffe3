// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PromptForm } from '../../../renderer/src/features/prompts/PromptForm';
import { ReadResource } from '../../../renderer/src/features/resources/ReadResource';
import { RunTool } from '../../../renderer/src/features/tools/RunTool';
import { ContractTransport, failure, type Failure } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

afterEach(cleanup);

/** A Host whose manual requests run until calls.cancel names them, then end CANCELLED, as main does. */
function slowHost() {
  const waiting = new Map<string, (answer: Failure) => void>();
  const hold = (requestId: unknown) => new Promise<Failure>((resolve) => waiting.set(String(requestId), resolve));
  const host = new ContractTransport({
    'tools.call': (p) => hold(p.requestId),
    'resources.read': (p) => hold(p.requestId),
    'prompts.get': (p) => hold(p.requestId),
    'calls.cancel': ({ requestId }) => {
      const settle = waiting.get(requestId);
      waiting.delete(requestId);
      settle?.(failure('CANCELLED', 'Cancelled on the server.'));
      return { cancelled: settle !== undefined };
    },
  });
  return host;
}

describe('Stop for manual work', () => {
  it('a running tool shows Stop; Stop cancels that very call and the panel says it stopped', async () => {
    const host = slowHost();
    render(
      <WithHost transport={host}>
        <RunTool server="feature" tool={{ name: 'slow', description: 'Slow.', inputSchema: { type: 'object' } }} onClose={() => undefined} />
      </WithHost>,
    );
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Run' })));
    const [call] = host.sent('tools.call');
    expect(call).toMatchObject({ server: 'feature', tool: 'slow', requestId: expect.any(String) });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Stop' })));
    expect(host.sent('calls.cancel')).toEqual([{ requestId: call!.requestId }]);
    expect(await screen.findByText('Stopped')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a resource being read can be stopped, and read again', async () => {
    const host = slowHost();
    render(
      <WithHost transport={host}>
        <ReadResource server="feature" uri="slow://resource" updated={false} onReadAgain={() => undefined} onClose={() => undefined} />
      </WithHost>,
    );
    await screen.findByRole('button', { name: 'Stop' });
    const [read] = host.sent('resources.read');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Stop' })));
    expect(host.sent('calls.cancel')).toEqual([{ requestId: read!.requestId }]);
    expect(within(await screen.findByRole('alert')).getByText('Cancelled on the server.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    const reads = host.sent('resources.read');
    expect(reads).toHaveLength(2);
    expect(reads[1]!.requestId).not.toBe(read!.requestId);
  });

  it('a prompt being fetched can be stopped', async () => {
    const host = slowHost();
    render(
      <WithHost transport={host}>
        <PromptForm server="feature" prompt={{ name: 'wait', arguments: [] }} onClose={() => undefined} />
      </WithHost>,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show messages' })));
    const [get] = host.sent('prompts.get');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Stop' })));
    expect(host.sent('calls.cancel')).toEqual([{ requestId: get!.requestId }]);
    expect(within(await screen.findByRole('alert')).getByText('Cancelled on the server.')).toBeTruthy();
  });
});
