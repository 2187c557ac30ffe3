/**
 * `npm run bench`: Harbor's benchmarks, each figure measured side by side in this one run and held
 * against its target. Built by scripts/bench.mjs (which also sweeps after a crash). Prints each
 * figure as it comes, then ONE table (benchmark, measured, target, result), and writes every
 * figure with the machine's facts to bench/results/latest.json (README's table is generated from
 * that file: `npm run bench:readme`).
 *
 *   --check        exit 1 when a target is missed (default: report only, exit 0)
 *   --only NAME    run only these benchmarks (repeatable; see BENCHES)
 *   --calls N      calls per arm in the per-call benchmark (default 1000)
 *   --out FILE     write the results there (default: bench/results/latest.json for a full run,
 *                  test/output/bench/partial.json with --only)
 *   --peers        run only the peers benchmark (bench/peers.ts): one-shot CLI commands against a
 *                  bare SDK client and the other MCP command-line clients (--rounds N, default 7);
 *                  writes its table into docs/benchmarks.md and prints issue #32's goals;
 *                  --task ID and --client ID (repeatable) run a subset (the floor always runs),
 *                  printed but not written into docs/benchmarks.md
 *   --soak         run only the soak scenarios (bench/soak.ts): heap-after-GC slopes, printed
 *                  (--soak-seconds N per scenario, default 30); nothing is written
 *
 * Exit: 0 done (with --check: every target met or out of reach on this machine); 1 a target
 * missed under --check; 2 a benchmark could not run, or bad usage.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderTable, verdict, formatTarget, formatValue, type BenchFile, type BenchRecord } from '../scripts/bench-table.mjs';
import { benchCliStart } from './cli-start';
import { benchCodeMode } from './code-mode';
import { benchColdStart } from './cold-start';
import { benchContextCost } from './context-cost';
import { benchExecLazy } from './exec-lazy';
import { benchExecLoop } from './exec-loop';
import { benchHostScale } from './host-scale';
import { benchPerCall } from './per-call';
import { benchPeers, stats, TASKS } from './peers';
import { peersGoals, peersTable, writePeersDoc } from './peers-report';
import type { Figure } from './result';
import { benchShutdown } from './shutdown';
import { benchSoak } from './soak';
import { REPO, killEverything, removeScratch } from './support';
import { benchToolSearch } from './tool-search';

import { benchAppCards, benchAppPaint } from './apps';
import { benchUiScale } from './ui-scale';

const BENCHES = ['per-call', 'cold-start', 'shutdown', 'context-cost', 'code-mode', 'tool-search', 'host-scale', 'cli-start', 'exec-lazy', 'app-paint', 'app-cards', 'ui-scale'] as const;
type BenchName = (typeof BENCHES)[number];

interface Settings {
  readonly check: boolean;
  readonly only: ReadonlySet<BenchName>;
  readonly partial: boolean;
  readonly calls: number;
  readonly out: string;
  /** --peers: interleaved rounds of the peers benchmark; undefined for the usual benchmarks. */
  readonly peersRounds: number | undefined;
  /** --peers --task / --client: a subset, printed only. */
  readonly peersTasks?: readonly string[];
  readonly peersClients?: readonly string[];
  /** --soak: seconds per soak scenario; undefined for the usual benchmarks. */
  readonly soakSeconds: number | undefined;
}

function parseSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      check: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      calls: { type: 'string' },
      out: { type: 'string' },
      soak: { type: 'boolean', default: false },
      peers: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      task: { type: 'string', multiple: true },
      client: { type: 'string', multiple: true },
      'soak-seconds': { type: 'string' },
    },
    strict: true,
  });
  const only = values.only ?? [...BENCHES];
  for (const name of only) {
    if (!(BENCHES as readonly string[]).includes(name)) throw new Error(`--only ${name}: expected one of ${BENCHES.join(', ')}`);
  }
  const soakSeconds = values['soak-seconds'] === undefined ? 30 : Number(values['soak-seconds']);
  if (!Number.isSafeInteger(soakSeconds) || soakSeconds < 5) throw new Error(`--soak-seconds must be a whole number ≥ 5, got "${values['soak-seconds']}"`);
  const rounds = values.rounds === undefined ? 7 : Number(values.rounds);
  if (!Number.isSafeInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number ≥ 1, got "${values.rounds}"`);
  const calls = values.calls === undefined ? 1000 : Number(values.calls);
  if (!Number.isSafeInteger(calls) || calls < 10) throw new Error(`--calls must be a whole number ≥ 10, got "${values.calls}"`);
  return {
    check: values.check ?? false,
    only: new Set(only as BenchName[]),
    partial: values.only !== undefined,
    calls,
    soakSeconds: values.soak ? soakSeconds : undefined,
    peersRounds: values.peers ? rounds : undefined,
    ...(values.task ? { peersTasks: values.task } : {}),
    ...(values.client ? { peersClients: values.client } : {}),
    // A partial run must not replace the full run's results that README's table shows.
    out: resolve(values.out ?? (values.only === undefined ? join(REPO, 'bench/results/latest.json') : join(REPO, 'test/output/bench/partial.json'))),
  };
}

const RUNNERS: Record<BenchName, (s: Settings) => Promise<Figure | Figure[]>> = {
  'per-call': (s) => benchPerCall({ calls: s.calls, blockSize: 10, warmup: 50 }),
  'cold-start': () => benchColdStart({ servers: 10, repetitions: 3 }),
  shutdown: () => benchShutdown({ servers: 10, stdinGraceMs: 1000, termGraceMs: 1000 }),
  'context-cost': () => benchContextCost({ copies: 10 }),
  'code-mode': () => benchCodeMode({ repetitions: 3, laterScripts: 20 }),
  'tool-search': () => benchToolSearch({ tools: 2000, searches: 500 }),
  'host-scale': () => benchHostScale({ servers: 50, toolsPerServer: 40, repetitions: 3 }),
  'cli-start': () => benchCliStart({ runs: 20 }),
  // #32 goal 4 beside it: harbor exec loops against a bare SDK loop.
  'exec-lazy': async () => [await benchExecLazy({ runs: 5 }), ...(await benchExecLoop({ runs: 5 }))],
  'app-paint': () => benchAppPaint({ turns: 10 }),
  'app-cards': () => benchAppCards({ cards: 20 }),
  'ui-scale': () => benchUiScale({ servers: 50, toolsPerServer: 40, loads: 3, turns: 250, streamTokens: 4000, activityMessages: 10_000 }),
};

const load = () => loadavg().map((l) => Math.round(l * 100) / 100);

function line(r: BenchRecord): string {
  const problems = r.problems.length > 0 ? ` — ${r.problems.join('; ')}` : '';
  return `${r.name}: ${formatValue(r.value, r.unit)} (target ${formatTarget(r)}) ${r.verdict}${problems}\n    ${r.measured}`;
}

function machineFacts(): BenchFile['machine'] {
  return {
    cores: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    date: new Date().toISOString(),
    loadAverage: load(),
  };
}

async function main(): Promise<number> {
  let settings: Settings;
  try {
    settings = parseSettings(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const machine = machineFacts();
  process.stdout.write(
    `Harbor benchmarks — node ${machine.node}, ${machine.cores} cores (${machine.cpuModel}), load ${machine.loadAverage.join(' ')}\n\n`,
  );
  if (settings.peersRounds !== undefined) return runPeers(settings, settings.peersRounds, machine.node);
  if (settings.soakSeconds !== undefined) {
    const figures = await benchSoak(settings.soakSeconds);
    process.stdout.write(`\nsoak (heap after GC, MB/min): ${figures.map((f) => `${f.scenario} ${f.slopeMbPerMin}`).join(', ')}\n`);
    return 0;
  }
  const records: BenchRecord[] = [];
  const failed: { benchmark: string; error: string }[] = [];
  const runStarted = Date.now();
  for (const name of BENCHES) {
    if (!settings.only.has(name)) continue;
    const started = Date.now();
    const before = load();
    try {
      const figures = await RUNNERS[name](settings);
      const after = load();
      for (const figure of Array.isArray(figures) ? figures : [figures]) {
        const record: BenchRecord = { benchmark: name, ...figure, load: { before, after }, seconds: Math.round((Date.now() - started) / 100) / 10, verdict: verdict(figure) };
        records.push(record);
        process.stdout.write(`${line(record)}\n`);
        for (const note of record.notes) process.stdout.write(`    ${note}\n`);
      }
    } catch (error) {
      failed.push({ benchmark: name, error: error instanceof Error ? error.message : String(error) });
      process.stdout.write(`${name}: could not run — ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    } finally {
      // Whatever a benchmark left behind must not disturb the next one.
      const leaked = killEverything();
      if (leaked > 0) process.stdout.write(`    (killed ${leaked} leftover process(es) after ${name})\n`);
      process.stdout.write(`    [${name} took ${((Date.now() - started) / 1000).toFixed(1)} s; load ${before.join(' ')} → ${load().join(' ')}]\n\n`);
    }
  }

  const seconds = Math.round((Date.now() - runStarted) / 1000);
  const file: BenchFile = { machine, only: settings.partial ? [...settings.only] : [], results: records, failed, seconds };
  mkdirSync(dirname(settings.out), { recursive: true });
  writeFileSync(settings.out, `${JSON.stringify(file, null, 2)}\n`);
  if (records.length > 0) process.stdout.write(`${renderTable(records)}\n\n`);
  process.stdout.write(`(${seconds} s in all; results in ${settings.out})\n`);
  const missed = records.filter((r) => r.verdict === 'missed').length;
  const outOfReach = records.filter((r) => r.verdict === 'out of reach').length;
  if (outOfReach > 0) process.stdout.write(`${outOfReach} target(s) out of reach on this machine: the floor measured in this run misses them already\n`);
  if (failed.length > 0) {
    process.stdout.write(`${failed.length} benchmark(s) could not run\n`);
    return 2;
  }
  if (missed > 0) {
    process.stdout.write(`${missed} target(s) missed${settings.check ? '' : ' (report only; pass --check to fail on this)'}\n`);
    return settings.check ? 1 : 0;
  }
  return 0;
}

async function runPeers(settings: Settings, rounds: number, node: string): Promise<number> {
  const known = TASKS.map((t) => t.id);
  for (const id of settings.peersTasks ?? []) if (!known.includes(id)) throw new Error(`--task ${id}: expected one of ${known.join(', ')}`);
  const result = await benchPeers({ rounds, ...(settings.peersTasks ? { tasks: settings.peersTasks } : {}), ...(settings.peersClients ? { clients: settings.peersClients } : {}) });
  const partial = settings.peersTasks !== undefined || settings.peersClients !== undefined;
  killEverything();
  process.stdout.write(`\n${peersTable(result)}\n\n`);
  for (const task of TASKS) {
    const harbor = stats(result.samples[task.id]?.harbor);
    const floor = stats(result.samples[task.id]?.floor);
    // CPU time beside the wall time: on a shared machine the wall time is mostly the others' load.
    const cpu = harbor?.cpuMs !== undefined && floor?.cpuMs !== undefined ? `; CPU ${harbor.cpuMs.toFixed(0)} ms vs the floor's ${floor.cpuMs.toFixed(0)} ms (${(harbor.cpuMs / floor.cpuMs).toFixed(2)}×)` : '';
    if (harbor) process.stdout.write(`  ${task.id}: harbor median ${harbor.median.toFixed(0)} ms, p90 ${harbor.p90.toFixed(0)} ms${cpu}\n`);
  }
  for (const skipped of result.skipped) process.stdout.write(`${skipped}\n`);
  const goals = peersGoals(result);
  for (const goal of goals) process.stdout.write(`${goal.held ? 'HELD    ' : 'NOT HELD'}  ${goal.name}: ${goal.ratio.toFixed(2)}× (target ≤ ${goal.target}×)\n`);
  process.stdout.write('goals 3–5 (a call through the Host, harbor exec loops, the app) are measured by the other benchmarks (per-call, exec-lazy, app-paint, ui-scale), not by --peers\n');
  process.stdout.write(`load average ${result.load.before.map((l) => l.toFixed(2)).join(' ')} before, ${result.load.after.map((l) => l.toFixed(2)).join(' ')} after\n`);
  if (partial) process.stdout.write('a subset (--task/--client): docs/benchmarks.md left as it was\n');
  else process.stdout.write(`table written to ${writePeersDoc(result, goals, node)}\n`);
  return 0;
}

function cleanUp(): void {
  killEverything();
  removeScratch();
}

// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and forwarded by
// scripts/bench.mjs), and a second signal without a listener would kill it mid-cleanup.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    cleanUp();
    process.stdout.write(`\nbench: interrupted (${signal}); stopped every benchmark process and removed the scratch dir\n`);
    process.exit(130);
  });
}

main().then(
  (code) => {
    cleanUp();
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    cleanUp();
    process.exitCode = 2;
  },
);
