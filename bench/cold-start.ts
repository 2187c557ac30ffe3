/**
 * Cold start: N stdio servers connected in parallel through one Host (`startAll`) against each of
 * the same servers connected alone through a fresh Host, one after another (the slowest of them
 * is the reference). Every Host gets a fresh data dir, so both arms probe the era (no cached
 * verdict on either side), and neither resolves the login-shell PATH. Repeated a few times with
 * the arm order alternating; the medians over the repetitions are compared.
 *
 * Beside it, the same comparison with no client at all (spawn → first answer to `initialize`):
 * the machine's floor. When it is already above the target, the target measures the core count,
 * not Harbor — the notes say so.
 */
import { availableParallelism } from 'node:os';
import type { BenchResult } from './result';
import type { ServerConfig } from '../main/host/registry/schema';
import { rawFirstAnswer } from './raw-start';
import { FEATURE_SERVER, assertAllReady, createBenchHost, marker, median, nodeServer, now } from './support';

export interface ColdStartOptions {
  readonly servers: number;
  readonly repetitions: number;
}

const TARGET = 1.5;

interface ParallelRun {
  /** startAll() call to resolution, every server ready. */
  readonly allReadyMs: number;
  /** Each server's own `starting` → `ready` time inside the parallel run. */
  readonly ownReadyMs: readonly number[];
  /** CPU time of this (the host's) process during startAll. */
  readonly hostCpuMs: number;
}

interface Arms {
  parallel(): Promise<void>;
  singles(): Promise<void>;
}

function serverArgs(i: number): string[] {
  return ['--name', `cold-${i}`];
}

async function runParallel(servers: Record<string, ServerConfig>): Promise<ParallelRun> {
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
    await host.startAll();
    const allReadyMs = now() - started;
    const used = process.cpuUsage(cpu);
    void listening.dispose();
    assertAllReady(host);
    const ownReadyMs = host.serverNames().map((name) => (readyAt.get(name) ?? Number.NaN) - (startedAt.get(name) ?? Number.NaN));
    return { allReadyMs, ownReadyMs, hostCpuMs: (used.user + used.system) / 1000 };
  } finally {
    await bench.dispose();
  }
}

async function runSingle(name: string, config: ServerConfig): Promise<{ ms: number; hostCpuMs: number }> {
  const bench = await createBenchHost('cold-single', { [name]: config });
  try {
    const cpu = process.cpuUsage();
    const started = now();
    await bench.host.startAll();
    const ms = now() - started;
    const used = process.cpuUsage(cpu);
    assertAllReady(bench.host);
    return { ms, hostCpuMs: (used.user + used.system) / 1000 };
  } finally {
    await bench.dispose();
  }
}

async function alternate(repetitions: number, armsFor: (rep: number) => Arms): Promise<void> {
  for (let rep = 0; rep < repetitions; rep++) {
    const arms = armsFor(rep);
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

export async function benchColdStart({ servers: count, repetitions }: ColdStartOptions): Promise<BenchResult> {
  const harborMark = marker('cold-start');
  const rawMark = marker('cold-start-raw');
  const indexes = [...Array(count).keys()];
  const servers: Record<string, ServerConfig> = Object.fromEntries(
    indexes.map((i) => [`cold-${i}`, nodeServer(FEATURE_SERVER, serverArgs(i), harborMark)]),
  );

  // Harbor (one Host with all servers vs a fresh Host per server) and the floor (the same
  // processes, no client), interleaved so that load from elsewhere hits both alike.
  const parallel: ParallelRun[] = [];
  const singles: { ms: number; hostCpuMs: number }[][] = [];
  const rawParallel: number[] = [];
  const rawSingles: number[][] = [];
  const runRawParallel = async (): Promise<void> => {
    const started = now();
    await Promise.all(indexes.map((i) => rawFirstAnswer(FEATURE_SERVER, serverArgs(i), rawMark)));
    rawParallel.push(now() - started);
  };
  await alternate(repetitions, (rep) => ({
    parallel: async () => {
      if (rep % 2 === 0) await runRawParallel();
      parallel.push(await runParallel(servers));
      if (rep % 2 === 1) await runRawParallel();
    },
    singles: async () => {
      const times = [];
      const rawTimes = [];
      for (const [i, [name, config]] of Object.entries(servers).entries()) {
        times.push(await runSingle(name, config));
        rawTimes.push(await rawFirstAnswer(FEATURE_SERVER, serverArgs(i), rawMark));
      }
      singles.push(times);
      rawSingles.push(rawTimes);
    },
  }));

  const allReady = median(parallel.map((p) => p.allReadyMs));
  const slowestSingle = median(singles.map((times) => max(times.map((t) => t.ms))));
  const anySingle = singles.flat().map((t) => t.ms);
  const ownInParallel = median(parallel.map((p) => max(p.ownReadyMs)));
  const rawAllMs = median(rawParallel);
  const rawSlowest = median(rawSingles.map(max));
  const hostCpuParallel = median(parallel.map((p) => p.hostCpuMs));
  const hostCpuSingle = median(singles.flat().map((t) => t.hostCpuMs));
  return {
    name: `cold start (${count})`,
    measured: `all ready ${allReady.toFixed(0)} ms   slowest single ${slowestSingle.toFixed(0)} ms`,
    ratio: allReady / slowestSingle,
    target: TARGET,
    problems: [],
    notes: [
      `medians of ${repetitions} repetitions, fresh data dirs (era probed in both arms); all-ready ${range(parallel.map((p) => p.allReadyMs))}, ` +
        `slowest single ${range(singles.map((t) => max(t.map((x) => x.ms))))}, any single ${range(anySingle)} (median ${median(anySingle).toFixed(0)} ms)`,
      `inside the parallel run the slowest server's own starting→ready took ${ownInParallel.toFixed(0)} ms ` +
        `(all-ready / that = ${(allReady / ownInParallel).toFixed(2)}: startAll waits on nothing but the servers)`,
      `host CPU: ${hostCpuParallel.toFixed(0)} ms for the parallel start (${(hostCpuParallel / count).toFixed(0)} ms per server), ${hostCpuSingle.toFixed(0)} ms for one alone`,
      `floor without any client (spawn → first answer to initialize): ${count} in parallel ${rawAllMs.toFixed(0)} ms, slowest alone ${rawSlowest.toFixed(0)} ms, ` +
        `ratio ${(rawAllMs / rawSlowest).toFixed(2)} on ${availableParallelism()} cores — the target is out of any host's reach when this is above ${TARGET}`,
      `like for like with the floor: Harbor's all-ready / the floor's ${count} in parallel = ${(allReady / rawAllMs).toFixed(2)}`,
    ],
  };
}
