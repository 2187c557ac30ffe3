/**
 * Per-call overhead: `tools/call echo` through Harbor's Host (catalog check, consent gate with a
 * standing "always" approval, traffic log with redaction, timeouts and abort wiring, Harbor's
 * supervised stdio transport) against a bare SDK client over the SDK's own StdioClientTransport,
 * each talking to its own process of the same fixture server script.
 *
 * Like for like on the wire: the bare client declares the client capabilities Harbor declares to
 * this server (form + URL elicitation, MCP Apps, sampling, the Tasks extension). A 2026-07-28
 * request carries them in its `_meta`, and the server's SDK validates that envelope on every
 * request, richer capabilities costing it more: that is the price of the protocol, paid by any
 * client that supports these features, not Harbor's overhead. A client with the SDK's defaults (no
 * capabilities) runs as a reported arm beside it, so both ratios show.
 *
 * Two more arms, for the diagnosis only: the bare SDK client over Harbor's SupervisedStdioTransport,
 * plainly and with the request options every Host request carries (an abort signal, the timeout
 * reset by progress: the Stop button and a lost connection end a request at once). They split the
 * overhead into what the transport costs, what the SDK itself charges for a cancellable request,
 * and what the Host's own code (catalog, argument check, consent, request scope, task wire,
 * traffic log) adds on top.
 *
 * The arms take turns in short blocks (rotating which goes first), in one process, so bursts of
 * load from elsewhere on the machine hit all of them alike. Beside the wall time, each arm's CPU
 * time in this process per call is reported: the client side's own work (the Host's code, the SDK,
 * the transport), which the machine's load hardly changes, where wall time on a loaded machine
 * mostly measures the scheduler.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { HARBOR_CLIENT_CAPABILITIES } from '../main/host/servers/client-factory';
import { SupervisedStdioTransport } from '../main/host/servers/stdio/transport';
import { TASKS_EXTENSION } from '../main/host/servers/task-wire/shapes';
import { ratioFigure, type Figure } from './result';
import { FEATURE_SERVER, MARKER_ENV, NODE, assertAllReady, createBenchHost, marker, median, now, percentile } from './support';

export interface PerCallOptions {
  readonly calls: number;
  /** Calls an arm makes before the next arm takes its turn. */
  readonly blockSize: number;
  readonly warmup: number;
}

/** #32 goal 3: a call through the Host at most 1.10× a bare SDK call… */
const TARGET = 1.1;
/**
 * …and the Host's process at most this much CPU per call against the bare client's (#32: 175 µs
 * where the SDK took 145). CPU time, unlike wall time, barely moves with the machine's load.
 */
const CPU_TARGET = 1.2;
const ARGS = { text: 'hello, harbor' };
const SERVER_ARGS = [FEATURE_SERVER, '--name', 'per-call'];

interface Arm {
  readonly name: string;
  readonly call: () => Promise<void>;
  readonly samples: number[];
  readonly blockMedians: number[];
  /** CPU time of this process spent in the arm's blocks, in microseconds, and the calls they made. */
  cpuMicros: number;
  cpuCalls: number;
  /** CPU time per call of each block, in microseconds: its median shrugs off the blocks a burst of load elsewhere slowed. */
  readonly blockCpu: number[];
}

function arm(name: string, call: () => Promise<{ isError?: boolean; content?: unknown }>): Arm {
  return {
    name,
    call: async () => {
      const result = await call();
      if (result.isError) throw new Error(`${name}: echo failed: ${JSON.stringify(result.content)}`);
    },
    samples: [],
    blockMedians: [],
    cpuMicros: 0,
    cpuCalls: 0,
    blockCpu: [],
  };
}

/**
 * What Harbor declares to the bench server: its base capabilities, sampling (declared unless a
 * server's "sampling" is "deny"), and the Tasks extension (task-wire/declare.ts adds it to every
 * modern request on the wire).
 */
const HARBOR_DECLARES = {
  ...HARBOR_CLIENT_CAPABILITIES,
  sampling: {},
  extensions: { ...HARBOR_CLIENT_CAPABILITIES.extensions, [TASKS_EXTENSION]: {} },
};

/**
 * A bare SDK client, as a script using the SDK would make it (era negotiation on), declaring
 * Harbor's client capabilities unless `sdkDefaults`.
 */
async function bareClient(transport: StdioClientTransport | SupervisedStdioTransport, sdkDefaults = false): Promise<Client> {
  const client = new Client(
    { name: 'bench-bare', version: '0.0.0' },
    { versionNegotiation: { mode: 'auto' }, ...(sdkDefaults ? {} : { capabilities: structuredClone(HARBOR_DECLARES) }) },
  );
  // Declaring elicitation and sampling takes handlers; the echo tool never asks.
  if (!sdkDefaults) {
    client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    client.setRequestHandler('sampling/createMessage', () => {
      throw new Error('The bench client does not sample.');
    });
  }
  await client.connect(transport);
  // Like for like: Harbor lists the catalog on connect, so the bare client holds the tool list too.
  await client.listTools();
  return client;
}

export async function benchPerCall({ calls, blockSize, warmup }: PerCallOptions): Promise<Figure[]> {
  const blocks = Math.ceil(calls / blockSize);
  const bench = await createBenchHost('per-call', {
    bench: { command: NODE, args: SERVER_ARGS, env: { [MARKER_ENV]: marker('per-call-harbor') } },
  });
  const clients: Client[] = [];
  try {
    const { host } = bench;
    await host.servers.startAll();
    assertAllReady(host);
    // The steady state of a tool a person approved with "always": every call still goes through
    // the consent gate, which finds the approval for this exact definition.
    await host.consent.grantTool('bench', 'echo', true);

    const env = getDefaultEnvironment();
    const bare = await bareClient(
      new StdioClientTransport({ command: NODE, args: SERVER_ARGS, env: { ...env, [MARKER_ENV]: marker('per-call-bare') }, stderr: 'pipe' }),
    );
    clients.push(bare);
    const defaults = await bareClient(
      new StdioClientTransport({ command: NODE, args: SERVER_ARGS, env: { ...env, [MARKER_ENV]: marker('per-call-defaults') }, stderr: 'pipe' }),
      true,
    );
    clients.push(defaults);
    const overHarborTransport = await bareClient(
      new SupervisedStdioTransport({ command: NODE, args: SERVER_ARGS, env: { ...env, [MARKER_ENV]: marker('per-call-transport') } }),
    );
    clients.push(overHarborTransport);
    const cancellable = await bareClient(
      new SupervisedStdioTransport({ command: NODE, args: SERVER_ARGS, env: { ...env, [MARKER_ENV]: marker('per-call-cancellable') } }),
    );
    clients.push(cancellable);

    const arms = [
      arm('harbor', () => host.calls.callTool('bench', 'echo', ARGS)),
      arm('bare', () => bare.callTool({ name: 'echo', arguments: ARGS })),
      arm('sdk over harbor transport', () => overHarborTransport.callTool({ name: 'echo', arguments: ARGS })),
      arm('bare, sdk defaults', () => defaults.callTool({ name: 'echo', arguments: ARGS })),
      // As InFlightRequests.run makes every request (main/host/servers/requests.ts).
      arm('sdk over harbor transport, cancellable', () =>
        cancellable.callTool({ name: 'echo', arguments: ARGS }, { signal: new AbortController().signal, timeout: 60_000, resetTimeoutOnProgress: true }),
      ),
    ] as const;

    for (let i = 0; i < warmup; i++) for (const a of arms) await a.call();
    for (let block = 0; block < blocks; block++) {
      // Rotate which arm goes first, so none always runs right after another one's block.
      const order = arms.map((_, i) => arms[(i + block) % arms.length]!);
      for (const a of order) {
        const blockSamples: number[] = [];
        const cpu = process.cpuUsage();
        for (let i = 0; i < blockSize; i++) {
          const started = now();
          await a.call();
          blockSamples.push(now() - started);
        }
        const spent = process.cpuUsage(cpu);
        a.cpuMicros += spent.user + spent.system;
        a.cpuCalls += blockSize;
        a.blockCpu.push((spent.user + spent.system) / blockSize);
        a.samples.push(...blockSamples);
        a.blockMedians.push(median(blockSamples));
      }
    }

    const [h, b, t, d, c] = arms;
    const hm = median(h.samples);
    const bm = median(b.samples);
    const tm = median(t.samples);
    const dm = median(d.samples);
    const cm = median(c.samples);
    const cpuPerCall = (x: Arm) => x.cpuMicros / x.cpuCalls;
    const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${(ms * 1000).toFixed(0)} µs`;
    const blockRatios = h.blockMedians.map((m, i) => m / b.blockMedians[i]!);
    const [hCpu, bCpu, cCpu] = [h, b, c].map((x) => median(x.blockCpu)) as [number, number, number];
    const cpuFigure = ratioFigure({
      name: 'per-call CPU',
      measured: `CPU time of this process per call, median of the ${blocks} blocks: harbor ${hCpu.toFixed(0)} µs, bare SDK client ${bCpu.toFixed(0)} µs`,
      value: hCpu / bCpu,
      target: CPU_TARGET,
      notes: [
        `the SDK's cancellable request over Harbor's transport ${cCpu.toFixed(0)} µs; the Host's own code on top ${(hCpu - cCpu).toFixed(0)} µs per call`,
      ],
    });
    const wallFigure = ratioFigure({
      name: 'per-call overhead',
      measured: `harbor median ${hm.toFixed(3)} ms, bare SDK client ${bm.toFixed(3)} ms`,
      value: hm / bm,
      target: TARGET,
      notes: [
        `${h.samples.length} calls per arm in ${blocks} blocks of ${blockSize}, arms interleaved block by block in rotating order, ` +
          `after ${warmup} warm-up calls each; per-block ratio p25–p75 ${percentile(blockRatios, 25).toFixed(2)}–${percentile(blockRatios, 75).toFixed(2)}`,
        `the bare client declares Harbor's capabilities (form + URL elicitation, MCP Apps, sampling, Tasks); with the SDK's defaults (none) it takes ${dm.toFixed(3)} ms: ` +
          `harbor / that = ${(hm / dm).toFixed(2)}, the server validating the richer _meta envelope on each request accounting for ${((bm - dm) * 1000).toFixed(0)} µs`,
        `p90 harbor ${percentile(h.samples, 90).toFixed(3)} ms, bare ${percentile(b.samples, 90).toFixed(3)} ms`,
        `CPU time of this process per call (the client side's own work, little changed by the machine's load): harbor ${cpuPerCall(h).toFixed(0)} µs, ` +
          `bare ${cpuPerCall(b).toFixed(0)} µs, bare over Harbor's stdio transport ${cpuPerCall(t).toFixed(0)} µs, cancellable ${cpuPerCall(c).toFixed(0)} µs`,
        `where it goes: the bare SDK client over Harbor's stdio transport takes ${tm.toFixed(3)} ms (transport ${signed(tm - bm)}), ` +
          `${cm.toFixed(3)} ms with the abort signal and timeout every Host request carries (the SDK's cancellable request ${signed(cm - tm)}); ` +
          `the Host's own code on top ${signed(hm - cm)} per call`,
      ],
    });
    return [wallFigure, cpuFigure];
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await bench.dispose();
  }
}
