/**
 * Cold start: N stdio servers connected in parallel through one Host (`startAll`) against each of
 * the same servers connected alone through a fresh Host, one after another (the slowest of them
 * is the reference). Every Host gets a fresh data dir, so both arms probe the era (no cached
 * verdict on either side), and neither resolves the login-shell PATH. Repeated a few times with
 * the arm order alternating; the medians over the repetitions are compared.
 *
 * Beside it, the floor: the CPU time the server processes themselves burn to get ready (read
 * from /proc) plus the host's own, divided by the cores. No host can bring all-ready below it;
 * when it alone is above the target, the target measures the core count, not Harbor.
 */
import { availableParallelism } from 'node:os';
import type { ServerConfig } from '../main/host/registry/schema';
import { processCpuMs } from './cpu';
import { ratioFigure, type Figure } from './result';
import { FEATURE_SERVER, assertAllReady, createBenchHost, findMarkedProcesses, marker, median, nodeServer, now } from './support';

export interface ColdStartOptions {
  readonly servers: number;
  readonly repetitions: number;
}

/** The host-core target: all ready within 1.5× the slowest server alone. */
const TARGET_SLOWEST = 1.5;
/** This machine's target: all ready within 1.1× the CPU floor (servers' + host CPU over the cores). */
const TARGET_FLOOR = 1.1;

interface ParallelRun {
  /** startAll() call to resolution, every server ready. */
  readonly allReadyMs: number;
  /** Each server's own `starting` → `ready` time inside the parallel run. */
  readonly ownReadyMs: readonly number[];
  /** CPU time of this (the host's) process during startAll. */
  readonly hostCpuMs: number;
  /** CPU time the server processes used to get ready (all of them together). */
  readonly serversCpuMs: number;
}

interface SingleRun {
  readonly ms: number;
  readonly hostCpuMs: number;
}

interface Arms {
  parallel(): Promise<void>;
  singles(): Promise<void>;
}

async function runParallel(servers: Record<string, ServerConfig>, mark: string): Promise<ParallelRun> {
  const bench = await createBenchHost('cold-parallel', servers);
  try {
    const { host } = bench;
    const startedAt = new Map<string, number>();
    const readyAt = new Map<string, number>();
    const listening = host.events.on((event, payload) => {
      if (event !== 'servers.changed') return;
      const change = payload as { name: string; reason: string; summary?: { state: { kind: string } } };
      const kind = change.reason === 'state' ? change.summary?.state.kind : undefined;
      if (kind === 'starting' && !startedAt.has(change.name)) startedAt.set(change.name, now());
      if (kind === 'ready') readyAt.set(change.name, now());
    });
    const cpu = process.cpuUsage();
    const started = now();
    await host.servers.startAll();
    const allReadyMs = now() - started;
    const used = process.cpuUsage(cpu);
    const serversCpuMs = findMarkedProcesses(mark).reduce((sum, p) => sum + processCpuMs(p.pid), 0);
    void listening.dispose();
    assertAllReady(host);
    const ownReadyMs = host.servers.names().map((name) => (readyAt.get(name) ?? Number.NaN) - (startedAt.get(name) ?? Number.NaN));
    return { allReadyMs, ownReadyMs, hostCpuMs: (used.user + used.system) / 1000, serversCpuMs };
  } finally {
    await bench.dispose();
  }
}

async function runSingle(name: string, config: ServerConfig): Promise<SingleRun> {
  const bench = await createBenchHost('cold-single', { [name]: config });
  try {
    const cpu = process.cpuUsage();
    const started = now();
    await bench.host.servers.startAll();
    const ms = now() - started;
    const used = process.cpuUsage(cpu);
    assertAllReady(bench.host);
    return { ms, hostCpuMs: (used.user + used.system) / 1000 };
  } finally {
    await bench.dispose();
  }
}

async function alternate(repetitions: number, arms: Arms): Promise<void> {
  for (let rep = 0; rep < repetitions; rep++) {
    // Alternate the order, so neither arm always runs right after the other's teardown.
    if (rep % 2 === 0) {
      await arms.parallel();
      await arms.singles();
    } else {
      await arms.singles();
      await arms.parallel();
    }
  }
}

const max = (values: readonly number[]) => Math.max(...values);
const range = (values: readonly number[]) => `${Math.min(...values).toFixed(0)}–${max(values).toFixed(0)} ms`;

export async function benchColdStart({ servers: count, repetitions }: ColdStartOptions): Promise<Figure[]> {
  const mark = marker('cold-start');
  const servers: Record<string, ServerConfig> = {};
  for (let i = 0; i < count; i++) servers[`cold-${i}`] = nodeServer(FEATURE_SERVER, ['--name', `cold-${i}`], mark);

  const parallel: ParallelRun[] = [];
  const singles: SingleRun[][] = [];
  await alternate(repetitions, {
    parallel: async () => {
      parallel.push(await runParallel(servers, mark));
    },
    singles: async () => {
      const runs = [];
      for (const [name, config] of Object.entries(servers)) runs.push(await runSingle(name, config));
      singles.push(runs);
    },
  });

  const allReady = median(parallel.map((p) => p.allReadyMs));
  const slowestSingle = median(singles.map((runs) => max(runs.map((r) => r.ms))));
  const anySingle = singles.flat().map((r) => r.ms);
  const ownInParallel = median(parallel.map((p) => max(p.ownReadyMs)));
  const hostCpuParallel = median(parallel.map((p) => p.hostCpuMs));
  const hostCpuSingle = median(singles.flat().map((r) => r.hostCpuMs));
  const serversCpu = median(parallel.map((p) => p.serversCpuMs));
  const cores = availableParallelism();
  const floorMs = (serversCpu + hostCpuParallel) / cores;
  const notes = [
    `medians of ${repetitions} repetitions, fresh data dirs (era probed in both arms); all-ready ${range(parallel.map((p) => p.allReadyMs))}, ` +
      `slowest single ${range(singles.map((runs) => max(runs.map((r) => r.ms))))}, any single ${range(anySingle)} (median ${median(anySingle).toFixed(0)} ms)`,
    `inside the parallel run the slowest server's own starting→ready took ${ownInParallel.toFixed(0)} ms ` +
      `(all-ready / that = ${(allReady / ownInParallel).toFixed(2)}: startAll waits on nothing but the servers)`,
    `CPU to get ready: the ${count} server processes ${serversCpu.toFixed(0)} ms (${(serversCpu / count).toFixed(0)} ms each), ` +
      `the host ${hostCpuParallel.toFixed(0)} ms (${hostCpuSingle.toFixed(0)} ms for one server alone); floor on ${cores} cores ${floorMs.toFixed(0)} ms`,
  ];
  return [
    ratioFigure({
      name: `cold start (${count}): all ready / CPU floor`,
      measured: `all ready ${allReady.toFixed(0)} ms, floor (servers' ${serversCpu.toFixed(0)} ms + host ${hostCpuParallel.toFixed(0)} ms CPU) / ${cores} cores = ${floorMs.toFixed(0)} ms`,
      value: allReady / floorMs,
      target: TARGET_FLOOR,
      notes,
    }),
    ratioFigure({
      name: `cold start (${count}): all ready / slowest alone`,
      measured: `all ready ${allReady.toFixed(0)} ms, slowest server alone ${slowestSingle.toFixed(0)} ms`,
      value: allReady / slowestSingle,
      target: TARGET_SLOWEST,
      floor: { value: floorMs / slowestSingle, note: `no host brings all-ready below the CPU floor ${floorMs.toFixed(0)} ms on ${cores} cores` },
    }),
  ];
}
