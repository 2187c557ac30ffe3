// One launch attempt owns everything it opened: these tests drive a ServerConnection against real
// fixture servers and check what is left once an attempt ends — processes, transports, state
// changes, and (through the leak check every test runs under, test/setup/leak-check.ts) every
// disposable it created.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../preload/contract';
import { RestartPolicy } from '../../main/host/servers/backoff';
import { ServerConnection, type ConnectionDeps, type OpenedTransport } from '../../main/host/servers/connection';
import { EraCache } from '../../main/host/servers/era-cache';
import type { LaunchSpec } from '../../main/host/servers/launch';
import type { SupervisedStdioTransport } from '../../main/host/servers/stdio/transport';
import { TrafficLog } from '../../main/host/servers/traffic';
import { createTransportFactory } from '../../main/host/servers/transports';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker } from '../fixtures/proc';
import { FEATURE_SERVER, FIXTURES, NODE, waitFor } from '../helpers/host';

const NO_DISCOVER = join(FIXTURES, 'modern/no-discover.mjs');
const CRASH_ON_CALL = join(FIXTURES, 'adversarial/crash-on-call.mjs');

const markers: string[] = [];
const connections: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  // Every disposable created during the test must be disposed by now: the leak check fails it otherwise.
});

interface Harness {
  readonly connection: ServerConnection;
  readonly states: ConnectionState['kind'][];
  readonly opened: OpenedTransport[];
  readonly traffic: TrafficLog;
  readonly marker: string;
}

function connect(label: string, args: string[], deps: Partial<ConnectionDeps> = {}): Harness {
  const marker = uniqueMarker(label);
  markers.push(marker);
  const spec: LaunchSpec = { transport: 'stdio', command: NODE, args, env: { HARBOR_SERVER_MARKER: marker } };
  const states: ConnectionState['kind'][] = [];
  const opened: OpenedTransport[] = [];
  const traffic = new TrafficLog();
  const open = createTransportFactory({ stopGraces: { stdinGraceMs: 200, termGraceMs: 200 } });
  const connection = new ServerConnection(label, spec, {
    clientInfo: { name: 'harbor-test', version: '0.0.0' },
    eraCache: new EraCache(undefined),
    traffic,
    openTransport: (launch, options) => {
      const transport = open(launch, options);
      opened.push(transport);
      return transport;
    },
    elicit: async () => ({ action: 'decline' }),
    restartPolicy: new RestartPolicy({ baseMs: 100, maxMs: 200, maxAttempts: 2, jitter: 0 }),
    probeTimeoutMs: 3_000,
    connectTimeoutMs: 10_000,
    onChange: (change) => {
      if (change.kind === 'state') states.push(change.state.kind);
    },
    ...deps,
  });
  connections.push(connection);
  return { connection, states, opened, traffic, marker };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const stdio = (opened: OpenedTransport) => opened.transport as SupervisedStdioTransport;

describe('a launch attempt owns what it opened', () => {
  it('stop() during the era probe leaves no process or transport behind, and the abandoned connect changes no state', async () => {
    // The probe is never answered: the connect waits the whole probe timeout unless stopped.
    const h = connect('stop-mid-probe', [NO_DISCOVER]);
    const starting = h.connection.start();
    await waitFor(() => h.traffic.list().some((e) => e.method === 'server/discover'), 'the era probe on the wire');
    expect(findMarkedProcesses(h.marker)).toHaveLength(1);

    await h.connection.stop();
    await starting;
    expect(h.connection.state.kind).toBe('stopped');
    expect(findMarkedProcesses(h.marker)).toEqual([]);
    expect(stdio(h.opened[0]!).exitInfo).toBeDefined();
    // Past the probe timeout: the abandoned attempt neither fell back to initialize nor reported anything.
    await new Promise((r) => setTimeout(r, 3_500));
    expect(h.states).toEqual(['starting', 'stopped']);
    expect(h.opened).toHaveLength(1);
    expect(h.traffic.list().some((e) => e.method === 'initialize')).toBe(false);

    // A start() right after begins a fresh attempt instead of waiting on the abandoned one.
    await h.connection.start();
    expect(h.connection.state.kind).toBe('ready');
    expect(h.opened).toHaveLength(2);
  });

  it('a launch approval that arrives after stop() opens nothing', async () => {
    const approval = deferred();
    let asked = false;
    const h = connect('late-approval', [FEATURE_SERVER], {
      authorizeLaunch: () => {
        asked = true;
        return approval.promise;
      },
    });
    const starting = h.connection.start();
    await waitFor(() => asked, 'the launch approval asked for');
    await h.connection.stop();
    approval.resolve();
    await starting;
    await new Promise((r) => setTimeout(r, 200));
    expect(h.opened).toEqual([]);
    expect(findMarkedProcesses(h.marker)).toEqual([]);
    expect(h.states).toEqual(['starting', 'stopped']);
  });

  it('dispose() during a connect ends the process and reports nothing afterwards', async () => {
    const h = connect('dispose-mid-connect', [NO_DISCOVER]);
    const starting = h.connection.start();
    await waitFor(() => h.traffic.list().some((e) => e.method === 'server/discover'), 'the era probe on the wire');
    connections.splice(connections.indexOf(h.connection), 1);
    await h.connection.dispose();
    await starting;
    expect(findMarkedProcesses(h.marker)).toEqual([]);
    expect(h.states).toEqual(['starting']);
  });

  it('a crash of a ready server restarts through a new attempt: new process, old one gone', async () => {
    const h = connect('crash-restart', [CRASH_ON_CALL, '--crash-on=1']);
    await h.connection.start();
    expect(h.connection.state.kind).toBe('ready');
    const first = stdio(h.opened[0]!);
    const firstPid = first.pid;

    const error = await h.connection.callTool('work', {}).then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(error?.code).toBe('CONNECTION_CLOSED');
    expect(error?.message).toMatch(/exited with code 1/);
    await waitFor(() => h.states.includes('restarting'), 'restarting');
    await waitFor(() => h.connection.state.kind === 'ready', 'ready again after the restart');

    expect(h.states).toEqual(['starting', 'ready', 'restarting', 'starting', 'ready']);
    expect(h.opened).toHaveLength(2);
    expect(first.exitInfo).toMatchObject({ code: 1 });
    const second = stdio(h.opened[1]!);
    expect(second.pid).not.toBe(firstPid);
    expect(findMarkedProcesses(h.marker).map((p) => p.pid)).toEqual([second.pid]);
    // The new attempt works; the catalog was read again on it.
    expect(h.connection.catalog.tools.map((t) => t.name)).toEqual(['work']);
  });

  it('a legacy server that exits on the era probe is relaunched as legacy (a typed ProbeInterruptedError, not the SDK text)', async () => {
    const h = connect('exit-on-probe', [NO_DISCOVER, '--exit-on-discover']);
    await h.connection.start();
    expect(h.connection.state.kind).toBe('ready');
    expect(h.connection.info.era).toBe('legacy');
    expect(h.opened).toHaveLength(2);
    expect(stdio(h.opened[0]!).probeInterrupted).toBe(true);
    expect(stdio(h.opened[1]!).probeInterrupted).toBe(false);
    const pong = await h.connection.callTool('ping', {});
    expect(pong.content).toEqual([{ type: 'text', text: 'pong' }]);
  });
});
