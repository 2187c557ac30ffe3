/**
 * `npm run bench -- --soak [--soak-seconds N]`: does the Host's memory stay flat when it runs for a
 * while? Each scenario runs for N seconds (default 30) against a real Host and real servers, and
 * samples the heap after a full collection (`--expose-gc`, which scripts/bench.mjs passes) every
 * second; the figure is the least-squares slope of those samples, in MB per minute, with the heap
 * at the start and the end. Flat is near 0; every message or app kept whole shows as a steep slope.
 *
 *   large-results   a tool call whose result is 256 KB of text, one after another (the traffic log)
 *   app-shows       an MCP App whose HTML is 437 KB, shown and closed again and again (its ui:// read)
 *   exec-loop       a code-mode script calling echo with 256 KB of text in a loop (harbor exec)
 */
import { join } from 'node:path';
import { DEFAULT_CODE_LIMITS } from '../main/host/code-mode/limits';
import { CodeSandbox } from '../main/host/code-mode/sandbox';
import type { Host } from '../main/host/host';
import { FEATURE_SERVER, REPO, assertAllReady, createBenchHost, marker, nodeServer } from './support';

const PROBE_APP_SERVER = join(REPO, 'test/fixtures/servers/apps/probe-app-server.mjs');
const RESULT_TEXT = 'r'.repeat(256 * 1024);
const APP_KB = 437;

export interface SoakFigure {
  readonly scenario: string;
  readonly slopeMbPerMin: number;
  readonly startMb: number;
  readonly endMb: number;
  readonly iterations: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapMb(): number {
  gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** The least-squares slope of (minutes, MB). */
function slope(samples: readonly { min: number; mb: number }[]): number {
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.min, 0) / n;
  const my = samples.reduce((s, p) => s + p.mb, 0) / n;
  const sxy = samples.reduce((s, p) => s + (p.min - mx) * (p.mb - my), 0);
  const sxx = samples.reduce((s, p) => s + (p.min - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** Runs `step` over and over for `seconds`, sampling the heap after GC about every second. */
async function soak(scenario: string, seconds: number, step: () => Promise<void>): Promise<SoakFigure> {
  // A warm-up, so the first sample holds what every later one holds too (code, caches, pools).
  for (let i = 0; i < 3; i++) await step();
  const started = Date.now();
  const samples = [{ min: 0, mb: heapMb() }];
  let iterations = 0;
  let nextSample = started + 1000;
  while (Date.now() - started < seconds * 1000) {
    await step();
    iterations++;
    if (Date.now() >= nextSample) {
      samples.push({ min: (Date.now() - started) / 60_000, mb: heapMb() });
      nextSample = Date.now() + 1000;
    }
  }
  samples.push({ min: (Date.now() - started) / 60_000, mb: heapMb() });
  const round = (x: number) => Math.round(x * 10) / 10;
  return { scenario, slopeMbPerMin: round(slope(samples)), startMb: round(samples[0]!.mb), endMb: round(samples.at(-1)!.mb), iterations };
}

async function withHost<T>(label: string, servers: Parameters<typeof createBenchHost>[1], run: (host: Host) => Promise<T>): Promise<T> {
  const bench = await createBenchHost(label, servers);
  try {
    await Promise.all(Object.keys(servers).map((name) => bench.host.servers.connect(name)));
    assertAllReady(bench.host);
    return await run(bench.host);
  } finally {
    await bench.dispose();
  }
}

const approved = { consent: { approveOnce: true } } as const;

export async function benchSoak(seconds: number): Promise<SoakFigure[]> {
  if (!gc) throw new Error('the soak bench needs --expose-gc (npm run bench passes it)');
  const figures: SoakFigure[] = [];
  const report = (figure: SoakFigure) => {
    figures.push(figure);
    process.stdout.write(`soak ${figure.scenario}: ${figure.slopeMbPerMin} MB/min heap after GC (${figure.startMb} → ${figure.endMb} MB, ${figure.iterations} iterations in ${seconds} s)\n`);
  };

  report(
    await withHost('soak-results', { fx: nodeServer(FEATURE_SERVER, [], marker('soak-results')) }, (host) =>
      soak('large-results', seconds, async () => {
        await host.calls.callTool('fx', 'echo', { text: RESULT_TEXT }, approved);
      }),
    ),
  );

  report(
    await withHost('soak-apps', { probe: nodeServer(PROBE_APP_SERVER, ['--pad', String(APP_KB)], marker('soak-apps')) }, async (host) => {
      const sandbox = host.apps.attachSandbox({ urlFor: (id) => `bench-sandbox://apps/${id}` });
      try {
        return await soak('app-shows', seconds, async () => {
          const view = await host.apps.open({ server: 'probe', tool: 'show_probe' });
          host.apps.close(view.instanceId);
        });
      } finally {
        await sandbox.dispose();
      }
    }),
  );

  report(
    await withHost('soak-exec', { fx: nodeServer(FEATURE_SERVER, [], marker('soak-exec')) }, async (host) => {
      const code = new CodeSandbox();
      try {
        // One script for the whole scenario, as one long `harbor exec` loop: it stops when told.
        const stop = new AbortController();
        let calls = 0;
        const running = code.run({
          code: `const text = 'x'.repeat(${RESULT_TEXT.length}); for (;;) await tools.fx.echo({ text });`,
          api: { fx: ['echo'] },
          limits: { ...DEFAULT_CODE_LIMITS, timeoutMs: (seconds + 60) * 1000, maxToolCalls: 1_000_000, memoryBytes: 256 * 2 ** 20 },
          broker: {
            callTool: (server, tool, args, { signal }) => {
              calls++;
              return host.calls.callTool(server, tool, args, { signal, ...approved });
            },
          },
          signal: stop.signal,
        });
        const figure = await soak('exec-loop', seconds, () => new Promise((resolve) => setTimeout(resolve, 50)));
        stop.abort();
        await running;
        return { ...figure, iterations: calls };
      } finally {
        await code.dispose();
      }
    }),
  );
  return figures;
}
