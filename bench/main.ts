/**
 * `npm run bench`: Harbor's host-core benchmarks, each a ratio of two numbers measured
 * side by side in this one run. Built by scripts/bench.mjs (which also sweeps after a crash).
 *
 *   --check        exit 1 when a target is missed (default: report only, exit 0)
 *   --only NAME    run only per-call | cold-start | shutdown | context-cost | code-mode | app-paint |
 *                  app-cards (repeatable; the app benchmarks drive Chromium on the built app: npm run build)
 *   --calls N      calls per arm in the per-call benchmark (default 1000)
 *
 * Exit: 0 done (with --check: every target met); 1 a target missed under --check;
 * 2 a benchmark could not run, or bad usage.
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { benchColdStart } from './cold-start';
import { benchPerCall } from './per-call';
import { passed, type BenchResult } from './result';
import { benchShutdown } from './shutdown';
import { killEverything, removeScratch } from './support';
import { benchContextCost } from './context-cost';
import { benchCodeMode } from './code-mode';
import { benchAppCards, benchAppPaint } from './apps';
import { benchUiScale } from './ui-scale';

const BENCHES = ['per-call', 'cold-start', 'shutdown', 'context-cost', 'code-mode', 'app-paint', 'app-cards', 'ui-scale'] as const;
type BenchName = (typeof BENCHES)[number];

interface Settings {
  readonly check: boolean;
  readonly only: ReadonlySet<BenchName>;
  readonly calls: number;
}

function parseSettings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      check: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      calls: { type: 'string' },
    },
    strict: true,
  });
  const only = values.only ?? [...BENCHES];
  for (const name of only) {
    if (!(BENCHES as readonly string[]).includes(name)) throw new Error(`--only ${name}: expected one of ${BENCHES.join(', ')}`);
  }
  const calls = values.calls === undefined ? 1000 : Number(values.calls);
  if (!Number.isSafeInteger(calls) || calls < 10) throw new Error(`--calls must be a whole number ≥ 10, got "${values.calls}"`);
  return { check: values.check ?? false, only: new Set(only as BenchName[]), calls };
}

const RUNNERS: Record<BenchName, (s: Settings) => Promise<BenchResult>> = {
  'per-call': (s) => benchPerCall({ calls: s.calls, blockSize: 10, warmup: 50 }),
  'cold-start': () => benchColdStart({ servers: 10, repetitions: 3 }),
  shutdown: () => benchShutdown({ servers: 10, stdinGraceMs: 1000, termGraceMs: 1000 }),
  'context-cost': () => benchContextCost({ copies: 10 }),
  'code-mode': () => benchCodeMode({ repetitions: 3, laterScripts: 20 }),
  'app-paint': () => benchAppPaint({ turns: 10 }),
  'app-cards': () => benchAppCards({ cards: 20 }),
  'ui-scale': () => benchUiScale({ servers: 50, toolsPerServer: 40, loads: 3 }),
};

function verdict(result: BenchResult): string {
  return passed(result) ? 'ok' : 'MISSED';
}

function line(result: BenchResult, nameWidth: number, measuredWidth: number): string {
  const ratio = Number.isFinite(result.ratio) ? result.ratio.toFixed(2) : '—';
  return [
    result.name.padEnd(nameWidth),
    result.measured.padEnd(measuredWidth),
    `ratio ${ratio.padStart(4)}`,
    `(target ≤ ${result.target})`.padEnd(17),
    verdict(result),
    ...(result.problems.length > 0 ? [`— ${result.problems.join('; ')}`] : []),
  ].join('  ');
}

async function main(): Promise<number> {
  let settings: Settings;
  try {
    settings = parseSettings(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  process.stdout.write(
    `Harbor host-core benchmarks — node ${process.version}, ${availableParallelism()} cores, ` +
      `load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n\n`,
  );
  const results: BenchResult[] = [];
  const runStarted = Date.now();
  let crashed = 0;
  for (const name of BENCHES) {
    if (!settings.only.has(name)) continue;
    const started = Date.now();
    try {
      const result = await RUNNERS[name](settings);
      results.push(result);
      process.stdout.write(`${line(result, 0, 0)}\n`);
      for (const note of result.notes) process.stdout.write(`    ${note}\n`);
    } catch (error) {
      crashed += 1;
      process.stdout.write(`${name}: could not run — ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    } finally {
      // Whatever a benchmark left behind must not disturb the next one.
      const leaked = killEverything();
      if (leaked > 0) process.stdout.write(`    (killed ${leaked} leftover process(es) after ${name})\n`);
      process.stdout.write(`    [${name} took ${((Date.now() - started) / 1000).toFixed(1)} s]\n\n`);
    }
  }

  if (results.length > 0) {
    const nameWidth = Math.max(...results.map((r) => r.name.length));
    const measuredWidth = Math.max(...results.map((r) => r.measured.length));
    process.stdout.write('summary\n');
    for (const result of results) process.stdout.write(`${line(result, nameWidth, measuredWidth)}\n`);
  }
  process.stdout.write(`(${((Date.now() - runStarted) / 1000).toFixed(0)} s in all)\n`);
  const missed = results.filter((r) => !passed(r)).length;
  if (crashed > 0) {
    process.stdout.write(`${crashed} benchmark(s) could not run\n`);
    return 2;
  }
  if (missed > 0) {
    process.stdout.write(`${missed} target(s) missed${settings.check ? '' : ' (report only; pass --check to fail on this)'}\n`);
    return settings.check ? 1 : 0;
  }
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
