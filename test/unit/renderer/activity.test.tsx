// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApi, type ServerEventData, type TrafficEntryData } from '../../../preload/contract';
import { ActivityLog } from '../../../renderer/src/features/activity/activity-log';
import { trafficAsJsonLines } from '../../../renderer/src/features/activity/traffic-export';
import { ActivityPage } from '../../../renderer/src/features/activity/ActivityPage';
import { TrafficStore, filterTraffic, prettyMessage } from '../../../renderer/src/features/activity/traffic-store';
import { copyText } from '../../../renderer/src/ui/clipboard';
import { ContractTransport, failure } from '../../helpers/contract-transport';
import { WithHost } from './with-host';

afterEach(cleanup);

const entry = (seq: number, server: string, direction: 'out' | 'in', message: Record<string, unknown>): TrafficEntryData => ({
  seq,
  at: 1_700_000_000_000 + seq,
  server,
  direction,
  text: JSON.stringify({ jsonrpc: '2.0', ...message }),
  ...(typeof message.method === 'string' ? { method: message.method } : {}),
  ...(message.id !== undefined ? { id: message.id as number } : {}),
});

const HISTORY = [
  entry(1, 'feature', 'out', { id: 1, method: 'tools/list' }),
  entry(2, 'feature', 'in', { id: 1, result: { tools: [] } }),
  entry(3, 'notes', 'out', { id: 1, method: 'tools/call', params: { name: 'x' } }),
  entry(4, 'notes', 'in', { id: 1, error: { code: -32602, message: 'bad' } }),
];

describe('TrafficStore', () => {
  it('merges the loaded history with live messages by sequence, without duplicates, and names responses', async () => {
    let release: (() => void) | undefined;
    const host = new ContractTransport({
      // The list answers late: a live message arrives in between, and again after.
      'traffic.list': () => new Promise((resolve) => (release = () => resolve(HISTORY))),
    });
    const store = new TrafficStore(buildApi(host));
    const stop = store.start();
    await waitFor(() => expect(release).toBeDefined());
    host.emit('traffic.message', HISTORY[3]!);
    host.emit('traffic.message', entry(5, 'feature', 'out', { method: 'notifications/cancelled' }));
    release!();
    await waitFor(() => expect(store.snapshot().status).toBe('ready'));
    host.emit('traffic.message', HISTORY[2]!);
    host.emit('traffic.message', entry(6, 'feature', 'out', { id: 2, method: 'tools/call' }));
    const rows = store.snapshot().rows;
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.map((r) => r.label)).toEqual(['tools/list', 'tools/list (response)', 'tools/call', 'tools/call (response)', 'notifications/cancelled', 'tools/call']);
    expect(rows[3]!.isError).toBe(true);
    expect(rows[1]!.isError).toBe(false);
    stop();
  });

  it('keeps only the newest messages', async () => {
    const host = new ContractTransport({ 'traffic.list': () => HISTORY });
    const store = new TrafficStore(buildApi(host), 3);
    store.start();
    await waitFor(() => expect(store.snapshot().rows.map((r) => r.seq)).toEqual([2, 3, 4]));
  });

  it('reports a failed load as an error state', async () => {
    const host = new ContractTransport({ 'traffic.list': () => failure('INTERNAL', 'boom') });
    const store = new TrafficStore(buildApi(host));
    store.start();
    await waitFor(() => expect(store.snapshot()).toMatchObject({ status: 'error', error: { message: 'boom' } }));
  });

  it('filters by server, method (responses by their request) and direction', async () => {
    const host = new ContractTransport({ 'traffic.list': () => HISTORY });
    const store = new TrafficStore(buildApi(host));
    store.start();
    await waitFor(() => expect(store.snapshot().rows).toHaveLength(4));
    const rows = store.snapshot().rows;
    expect(filterTraffic(rows, { server: 'notes', method: '', direction: 'all' }).map((r) => r.seq)).toEqual([3, 4]);
    expect(filterTraffic(rows, { server: '', method: 'TOOLS/CALL', direction: 'all' }).map((r) => r.seq)).toEqual([3, 4]);
    expect(filterTraffic(rows, { server: '', method: 'tools/', direction: 'in' }).map((r) => r.seq)).toEqual([2, 4]);
  });

  it('pairs each response with its request: latency and failure on both, either direction', async () => {
    const host = new ContractTransport({
      'traffic.list': () => [
        ...HISTORY,
        // A server's own request (elicitation) is answered by Harbor; a failed tool result counts as an error.
        entry(5, 'notes', 'in', { id: 'e1', method: 'elicitation/create' }),
        entry(6, 'notes', 'out', { id: 'e1', result: { action: 'accept' } }),
        entry(7, 'feature', 'out', { id: 2, method: 'tools/call' }),
        { ...entry(8, 'feature', 'in', { id: 2, result: { isError: true, content: [] } }), at: 1_700_000_000_000 + 1250 },
        entry(9, 'feature', 'out', { id: 3, method: 'tools/call' }),
      ],
    });
    const store = new TrafficStore(buildApi(host));
    store.start();
    await waitFor(() => expect(store.snapshot().rows).toHaveLength(9));
    const rows = store.snapshot().rows;
    const pick = (seq: number) => rows.find((r) => r.seq === seq)!;
    expect([pick(1).pairSeq, pick(1).latencyMs, pick(2).pairSeq, pick(2).latencyMs]).toEqual([2, 1, 1, 1]);
    expect([pick(3).isError, pick(4).isError]).toEqual([true, true]);
    expect([pick(5).pairSeq, pick(6).label]).toEqual([6, 'elicitation/create (response)']);
    expect([pick(7).isError, pick(7).latencyMs, pick(8).isError]).toEqual([true, 1243, true]);
    expect([pick(9).pairSeq, pick(9).latencyMs]).toEqual([undefined, undefined]);
    const lines = trafficAsJsonLines([pick(3), pick(4)]).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({ seq: 4, answers: 'tools/call', pairSeq: 3, latencyMs: 1, error: true, message: { error: { message: 'bad' } } });

    store.clear();
    expect(store.snapshot().rows).toEqual([]);
    host.emit('traffic.message', entry(10, 'feature', 'in', { id: 3, result: {} }));
    expect(store.snapshot().rows.map((r) => [r.seq, r.label])).toEqual([[10, 'tools/call (response)']]);
  });

  it('pretty-prints JSON and leaves anything else as it is', () => {
    expect(prettyMessage('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyMessage('not json')).toBe('not json');
  });
});

describe('ActivityPage', () => {
  it('shows messages live, opens one, and filters', async () => {
    const host = new ContractTransport({ 'traffic.list': () => HISTORY.slice(0, 2) });
    render(
      <WithHost transport={host}>
        <ActivityPage />
      </WithHost>,
    );
    const list = await screen.findByRole('list', { name: 'Messages' });
    // A request and its response: one row (#31.15).
    expect(within(list).getByText('tools/list')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await act(async () => host.emit('traffic.message', HISTORY[2]!));
    expect(within(list).getByText('tools/call')).toBeTruthy();
    expect(screen.getByText('3 messages')).toBeTruthy();

    const row = within(list).getByText('tools/call').closest('[role="listitem"]') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { expanded: false }));
    expect(within(row).getByText(/"name": "x"/)).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Method' }), { target: { value: 'nothing-like-this' } });
    expect(screen.getByText('No message matches these filters')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByText('3 messages')).toBeTruthy();
  });

  it('says so when there is no traffic yet', async () => {
    const host = new ContractTransport({ 'traffic.list': () => [] });
    render(
      <WithHost transport={host}>
        <ActivityPage />
      </WithHost>,
    );
    expect(await screen.findByText('No messages yet')).toBeTruthy();
  });
});

describe('ActivityLog', () => {
  const change = (seq: number, name: string): ServerEventData => ({ seq, at: 1_700_000_000_000 + seq, event: { name, reason: 'config' } });

  it('loads the events the Host kept when first watched, and merges live ones by sequence, newest first', async () => {
    let release: (() => void) | undefined;
    const host = new ContractTransport({ 'serverEvents.list': () => new Promise((resolve) => (release = () => resolve([change(1, 'a'), change(2, 'b')]))) });
    const log = new ActivityLog(buildApi(host));
    host.emit('serverEvents.entry', change(2, 'b'));
    const seen: string[][] = [];
    log.subscribe(() => seen.push(log.snapshot().map((e) => e.id)));
    host.emit('serverEvents.entry', change(3, 'c'));
    await waitFor(() => expect(release).toBeDefined());
    release!();
    await waitFor(() => expect(log.snapshot().map((e) => e.id)).toEqual(['change-3', 'change-2', 'change-1']));
    expect(log.snapshot()[0]).toMatchObject({ server: 'c', text: 'was reconfigured' });
    expect(seen.at(-1)).toEqual(['change-3', 'change-2', 'change-1']);
  });
});

describe('copyText', () => {
  it('falls back to a hidden textarea when the Clipboard API is refused', async () => {
    const copied: string[] = [];
    Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
    const original = document.execCommand;
    document.execCommand = ((command: string) => {
      copied.push(`${command}:${(document.activeElement as HTMLTextAreaElement | null)?.value ?? (document.querySelector('textarea') as HTMLTextAreaElement).value}`);
      return true;
    }) as typeof document.execCommand;
    try {
      expect(await copyText('{"a":1}')).toBe(true);
      expect(copied).toEqual(['copy:{"a":1}']);
      expect(document.querySelector('textarea')).toBeNull();
    } finally {
      document.execCommand = original;
    }
  });

  it('uses the Clipboard API when it works', async () => {
    const written: string[] = [];
    Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void written.push(t) } });
    expect(await copyText('hello')).toBe(true);
    expect(written).toEqual(['hello']);
  });
});
