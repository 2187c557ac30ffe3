/**
 * The host at scale: 50 stdio servers with 40 tools each (the feature fixture with 31 extra tools).
 *
 * - All ready: one Host's startAll against the bare floor measured in the same run — 50 bare SDK
 *   clients making the same requests to the same servers in parallel (the four catalog lists and
 *   the listen stream Harbor opens for list changes). The bare clients are pinned to the era the
 *   servers speak (no probe; Harbor probes) and talk over Harbor's stdio transport, the fastest
 *   way this process has to bring 50 servers up: over the SDK's own StdioClientTransport the same
 *   50 took 70–100 s here where Harbor took 9 (and 20 of them 15 s against 3 over Harbor's), which
 *   would make a "floor" no host needs to beat. Arms alternate over repetitions; medians
 *   compared. Beside each, its CPU floor: (servers' CPU + this process's CPU) / cores.
 * - Memory: the Host's own heap (after gc) with the 50 servers configured and stopped, then ready
 *   and idle; the difference per server. Beside it, the same for 50 bare SDK clients.
 * - Flat as servers grow: a tool call (consent gate with a standing approval, traffic log,
 *   redaction, the round trip) through Hosts with 1, 10 and 50 ready servers, interleaved block by
 *   block; the per-call median at 50 servers against the one at 1. Each Host's calls go to its
 *   first server, so the server side is equally warm in every arm (calls spread over 50 servers
 *   would each meet a colder process, and measure the servers' JIT, not the Host).
 */
import { availableParallelism } from 'node:os';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { ServerConfig } from '../main/host/registry/schema';
import { HARBOR_CLIENT_CAPABILITIES } from '../main/host/servers/client-factory';
import { SupervisedStdioTransport } from '../main/host/servers/stdio/transport';
import { processCpuMs } from './cpu';
import type { Figure } from './result';
import { BENCH_PROBE_TIMEOUT_MS, FEATURE_SERVER, MARKER_ENV, NODE, assertAllReady, createBenchHost, findMarkedProcesses, marker, median, nodeServer, now, sleep, type BenchHost } from './support';

export interface HostScaleOptions {
  readonly servers: number;
  readonly toolsPerServer: number;
  readonly repetitions: number;
}

/** The protocol revision the feature fixture speaks, which the bare clients pin. */
const SERVERS_REVISION = '2026-07-28';
/** The feature fixture's own tools; the rest are its `--tools-count` extras. */
const FIXTURE_TOOLS = 9;
const READY_TARGET = 1.1;
const MEMORY_TARGET_MB = 2;
const FLAT_TARGET = 1.1;
const CALLS_PER_SCALE = 1_000;
const BLOCK = 10;
/**
 * Both arms wait this long for a server's connect and each list: 50 servers starting at once on a
 * busy 2-core machine can take longer than the usual 30 s, and a timeout would end the benchmark
 * rather than measure it.
 */
const REQUEST_TIMEOUT_MS = 180_000;

interface ArmRun {
  readonly ms: number;
  /** CPU of the server processes plus this process over the run. */
  readonly cpuMs: number;
  /** How many servers negotiated each protocol version (a probe that times out falls back to legacy). */
  readonly versions: ReadonlyMap<string, number>;
}

function countVersions(versions: readonly (string | undefined)[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of versions) counts.set(v ?? 'unknown', (counts.get(v ?? 'unknown') ?? 0) + 1);
  return counts;
}

const versionText = (runs: readonly ArmRun[]) =>
  runs.map((r) => [...r.versions].map(([version, n]) => `${n}× ${version}`).join(' + ')).join('; ');

function servers(count: number, tools: number, mark: string, prefix = 'scale'): Record<string, ServerConfig> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`${prefix}-${i}`, nodeServer(FEATURE_SERVER, ['--name', `${prefix}-${i}`, '--tools-count', String(tools - FIXTURE_TOOLS)], mark)]),
  );
}

const serversCpu = (mark: string) => findMarkedProcesses(mark).reduce((sum, p) => sum + processCpuMs(p.pid), 0);
const hostCpu = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function harborArm(count: number, tools: number, label: string): Promise<ArmRun> {
  const mark = marker(`scale-harbor-${label}`);
  const bench = await createBenchHost(`scale-harbor-${label}`, servers(count, tools, mark), { connectTimeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const cpu = process.cpuUsage();
    const started = now();
    await bench.host.servers.startAll();
    const ms = now() - started;
    const cpuMs = hostCpu(cpu) + serversCpu(mark);
    assertAllReady(bench.host);
    const summaries = bench.host.servers.list();
    const listed = summaries.map((s) => s.counts.tools);
    if (listed.some((n) => n !== tools)) throw new Error(`expected ${tools} tools per server, got ${[...new Set(listed)].join(', ')}`);
    return { ms, cpuMs, versions: countVersions(summaries.map((s) => s.protocolVersion)) };
  } finally {
    await bench.dispose();
  }
}

/** A bare SDK client asking what Harbor asks on connect: every list, the listen stream. */
async function bareConnect(script: readonly string[], mark: string): Promise<Client> {
  const client = new Client(
    { name: 'bench-bare', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: SERVERS_REVISION } }, capabilities: structuredClone(HARBOR_CLIENT_CAPABILITIES) },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
  const options = { timeout: REQUEST_TIMEOUT_MS };
  const step = async <T>(what: string, request: Promise<T>): Promise<T> => {
    try {
      return await request;
    } catch (error) {
      throw new Error(`bare SDK client for ${script[2] ?? script[0]}: ${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
  await step('connect', client.connect(new SupervisedStdioTransport({ command: NODE, args: [...script], env: { ...getDefaultEnvironment(), [MARKER_ENV]: mark } }), options));
  const caps = client.getServerCapabilities() ?? {};
  await Promise.all([
    caps.tools ? step('tools/list', client.listTools(undefined, options)) : undefined,
    caps.resources ? step('resources/list', client.listResources(undefined, options)) : undefined,
    caps.resources ? client.listResourceTemplates(undefined, options).catch(() => undefined) : undefined,
    caps.prompts ? step('prompts/list', client.listPrompts(undefined, options)) : undefined,
  ]);
  const filter = {
    ...(caps.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(caps.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(caps.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length > 0) await client.listen(filter, options).catch(() => undefined);
  return client;
}

async function bareArm(count: number, tools: number, label: string, keep?: (clients: Client[]) => Promise<void>): Promise<ArmRun> {
  const mark = marker(`scale-bare-${label}`);
  const scripts = Array.from({ length: count }, (_, i) => [FEATURE_SERVER, '--name', `bare-${i}`, '--tools-count', String(tools - FIXTURE_TOOLS)]);
  const clients: Client[] = [];
  try {
    const cpu = process.cpuUsage();
    const started = now();
    clients.push(...(await Promise.all(scripts.map((script) => bareConnect(script, mark)))));
    const ms = now() - started;
    const cpuMs = hostCpu(cpu) + serversCpu(mark);
    await keep?.(clients);
    return { ms, cpuMs, versions: countVersions(clients.map((c) => c.getNegotiatedProtocolVersion())) };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

function heapMb(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the host-scale benchmark needs --expose-gc (scripts/bench.mjs passes it)');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

interface Memory {
  readonly perServerMb: number;
  readonly beforeMb: number;
  readonly afterMb: number;
  readonly bareClientMb: number;
}

/** Leaves the Host running (ready, idle) for the per-call arms; the caller disposes it. */
async function measureMemory(count: number, tools: number): Promise<{ memory: Memory; host: BenchHost }> {
  const bench = await createBenchHost('scale-memory', servers(count, tools, marker('scale-memory'), 'call'), { connectTimeoutMs: REQUEST_TIMEOUT_MS });
  await sleep(200);
  const beforeMb = heapMb();
  await bench.host.servers.startAll();
  assertAllReady(bench.host);
  // Idle: whatever a connect leaves to finish (listen streams, timers) settles first.
  await sleep(1_000);
  const afterMb = heapMb();
  let bareClientMb = Number.NaN;
  const bareBefore = heapMb();
  await bareArm(count, tools, 'memory', async () => {
    await sleep(1_000);
    bareClientMb = (heapMb() - bareBefore) / count;
  });
  return { memory: { perServerMb: (afterMb - beforeMb) / count, beforeMb, afterMb, bareClientMb }, host: bench };
}

interface Scale {
  readonly servers: number;
  readonly bench: BenchHost;
  readonly samples: number[];
}

async function perCallFlat(largest: BenchHost, count: number, tools: number): Promise<{ medians: Map<number, number> }> {
  const smaller = await Promise.all(
    [1, 10].map(async (n) => {
      const bench = await createBenchHost(`scale-calls-${n}`, servers(n, tools, marker(`scale-calls-${n}`), 'call'), { connectTimeoutMs: REQUEST_TIMEOUT_MS });
      await bench.host.servers.startAll();
      assertAllReady(bench.host);
      return bench;
    }),
  );
  try {
    const scales: Scale[] = [
      { servers: 1, bench: smaller[0]!, samples: [] },
      { servers: 10, bench: smaller[1]!, samples: [] },
      { servers: count, bench: largest, samples: [] },
    ];
    // The steady state of tools a person approved with "always": every call still passes the gate.
    for (const s of scales) for (let i = 0; i < s.servers; i += 1) await s.bench.host.consent.grantTool(`call-${i}`, 'echo', true);
    // Every Host calls its first server: the server side stays equally warm in each arm.
    const call = async (s: Scale) => {
      const server = 'call-0';
      const result = await s.bench.host.calls.callTool(server, 'echo', { text: 'hello' });
      if (result.isError) throw new Error(`echo on ${server} failed`);
    };
    for (const s of scales) for (let i = 0; i < 30; i += 1) await call(s);
    for (let block = 0; block < CALLS_PER_SCALE / BLOCK; block += 1) {
      for (let k = 0; k < scales.length; k += 1) {
        const s = scales[(k + block) % scales.length]!;
        for (let i = 0; i < BLOCK; i += 1) {
          const started = now();
          await call(s);
          s.samples.push(now() - started);
        }
      }
    }
    return { medians: new Map(scales.map((s) => [s.servers, median(s.samples)])) };
  } finally {
    await Promise.all(smaller.map((b) => b.dispose()));
  }
}

export async function benchHostScale(options: HostScaleOptions): Promise<Figure[]> {
  const { servers: count, toolsPerServer: tools, repetitions } = options;
  const cores = availableParallelism();
  const harbor: ArmRun[] = [];
  const bare: ArmRun[] = [];
  for (let rep = 0; rep < repetitions; rep += 1) {
    // Alternate which arm goes first, so neither always follows the other's teardown.
    if (rep % 2 === 0) {
      harbor.push(await harborArm(count, tools, `${rep}`));
      bare.push(await bareArm(count, tools, `${rep}`));
    } else {
      bare.push(await bareArm(count, tools, `${rep}`));
      harbor.push(await harborArm(count, tools, `${rep}`));
    }
  }
  const harborMs = median(harbor.map((r) => r.ms));
  const bareMs = median(bare.map((r) => r.ms));
  const harborFloor = median(harbor.map((r) => r.cpuMs)) / cores;
  const bareFloor = median(bare.map((r) => r.cpuMs)) / cores;

  const { memory, host } = await measureMemory(count, tools);
  let medians: Map<number, number>;
  try {
    ({ medians } = await perCallFlat(host, count, tools));
  } finally {
    await host.dispose();
  }
  const at = (n: number) => medians.get(n) ?? Number.NaN;
  const spread = (runs: readonly ArmRun[]) => runs.map((r) => r.ms.toFixed(0)).join(', ');

  return [
    {
      name: `${count} servers × ${tools} tools: all ready / bare SDK clients`,
      value: harborMs / bareMs,
      unit: '×',
      target: { at: 'most', value: READY_TARGET },
      measured: `Harbor ${harborMs.toFixed(0)} ms, ${count} bare SDK clients (Harbor's stdio transport) doing the same connect + lists ${bareMs.toFixed(0)} ms (medians of ${repetitions})`,
      problems: [],
      notes: [
        `runs: Harbor ${spread(harbor)} ms; bare ${spread(bare)} ms (arms alternating)`,
        `protocol versions per run: Harbor ${versionText(harbor)} (probing, falling back to legacy after ${BENCH_PROBE_TIMEOUT_MS} ms of silence); bare ${versionText(bare)} (pinned)`,
        `CPU floor ((servers' + this process's CPU) / ${cores} cores): Harbor run ${harborFloor.toFixed(0)} ms (all ready / floor ${(harborMs / harborFloor).toFixed(2)}), ` +
          `bare run ${bareFloor.toFixed(0)} ms (${(bareMs / bareFloor).toFixed(2)})`,
      ],
    },
    {
      name: `host heap per idle server (${count} × ${tools} tools)`,
      value: memory.perServerMb,
      unit: 'MB',
      target: { at: 'most', value: MEMORY_TARGET_MB },
      measured: `Harbor's heap after gc ${memory.beforeMb.toFixed(1)} MB with the servers stopped, ${memory.afterMb.toFixed(1)} MB with all ${count} ready and idle`,
      problems: [],
      notes: [`for comparison, one bare SDK client holding the same server's catalog: ${memory.bareClientMb.toFixed(2)} MB of heap`],
    },
    {
      name: `tool call at ${count} servers / at 1 (consent + traffic log)`,
      value: at(count) / at(1),
      unit: '×',
      target: { at: 'most', value: FLAT_TARGET },
      measured: `median per call ${at(1).toFixed(3)} ms at 1 server, ${at(10).toFixed(3)} ms at 10, ${at(count).toFixed(3)} ms at ${count}`,
      problems: [],
      notes: [`${CALLS_PER_SCALE} calls per Host (each to the Host's first server, every server's tool approved "always"), in blocks of ${BLOCK} interleaved across the three Hosts`],
    },
  ];
}
