/**
 * Stop for manual work: a tool call, resource read or prompt a window started with a requestId is
 * stopped by calls.cancel — through the contract, as the app and browser mode send it — and the
 * server sees the cancellation (notifications/cancelled on stdio; the request's stream closing over
 * Streamable HTTP).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bindCommands } from '../../main/contract-handlers';
import { createDispatcher } from '../../main/dispatch';
import { FIXTURES, NODE, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { startHttpFeatureServer, type RunningHttpServer } from '../helpers/http-server';

const SLOW = join(FIXTURES, 'modern/slow-requests.mjs');

let current: TestHost | undefined;
let http: RunningHttpServer | undefined;
afterEach(async () => {
  await current?.dispose();
  await http?.kill();
  current = undefined;
  http = undefined;
});

const recorded = (file: string, line: string) => () => existsSync(file) && readFileSync(file, 'utf8').split('\n').includes(line);

/** A Host with the slow fixture as "slow" (its calls allowed without asking), and the contract's dispatcher over it. */
async function slowHost() {
  const t = await createTestHost({});
  current = t;
  const events = join(t.dir, 'events.log');
  await t.host.registry.add('slow', { command: NODE, args: [SLOW, `--events-file=${events}`] });
  t.host.consent.setPolicy('slow', '*', 'allow');
  return { t, events, dispatch: createDispatcher(bindCommands(t.host)) };
}

describe('calls.cancel stops a manual run', () => {
  it.each([
    ['tools.call', { server: 'slow', tool: 'wait' }, 'tool'],
    ['resources.read', { server: 'slow', uri: 'slow://resource' }, 'resource'],
    ['prompts.get', { server: 'slow', name: 'wait' }, 'prompt'],
  ] as const)('%s: the server is told, the request ends CANCELLED', async (command, payload, what) => {
    const { t, events, dispatch } = await slowHost();
    const requestId = `run-${what}`;
    const running = dispatch(command, { ...payload, requestId });
    await waitFor(recorded(events, `started ${what}`), `the server to start the ${what}`);
    const started = performance.now();
    expect(await dispatch('calls.cancel', { requestId })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await running).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(performance.now() - started).toBeLessThan(2_000);
    await waitFor(recorded(events, `cancelled ${what}`), `the server to see the ${what} cancelled`);
    expect(t.host.traffic.list({ server: 'slow' }).some((e) => e.direction === 'out' && e.text.includes('"notifications/cancelled"'))).toBe(true);
    // Finished: nothing left to stop under that id, and the id can be used again.
    expect(await dispatch('calls.cancel', { requestId })).toEqual({ ok: true, value: { cancelled: false } });
  });

  it('over Streamable HTTP the request is ended too', async () => {
    const t = await createTestHost({});
    current = t;
    const events = join(t.dir, 'events.log');
    http = await startHttpFeatureServer(['--events-file', events]);
    await t.host.registry.add('remote', { url: http.url });
    t.host.consent.setPolicy('remote', '*', 'allow');
    const dispatch = createDispatcher(bindCommands(t.host));

    const running = dispatch('tools.call', { server: 'remote', tool: 'slow', arguments: { steps: 100, delayMs: 100 }, requestId: 'http-run' });
    await waitFor(() => t.host.servers.get('remote').state.kind === 'ready', 'the remote server to connect');
    // The call must be running on the server before it is cancelled: a cancel that comes before
    // the request leaves Harbor ends it here, and the server has nothing to see.
    await waitFor(() => existsSync(events) && /^started /m.test(readFileSync(events, 'utf8')), 'the HTTP server to start the call');
    expect(await dispatch('calls.cancel', { requestId: 'http-run' })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await running).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await waitFor(() => existsSync(events) && readFileSync(events, 'utf8').includes('cancelled'), 'the HTTP server to see the call cancelled');
  });

  it('two runs cannot share an id; an unknown id cancels nothing', async () => {
    const { events, dispatch } = await slowHost();
    expect(await dispatch('calls.cancel', { requestId: 'nothing-running' })).toEqual({ ok: true, value: { cancelled: false } });
    const first = dispatch('tools.call', { server: 'slow', tool: 'wait', requestId: 'same' });
    await waitFor(recorded(events, 'started tool'), 'the first run to start');
    expect(await dispatch('resources.read', { server: 'slow', uri: 'slow://resource', requestId: 'same' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('already running') },
    });
    expect(await dispatch('calls.cancel', { requestId: 'same' })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await first).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  });
});
