/**
 * Shutdown: a Host with N servers, two of which ignore stdin EOF and SIGTERM and each start a
 * grandchild that ignores SIGTERM too (one of the two behind an `sh -c` wrapper). Time from
 * `host.dispose()` to its resolution, then count every process still carrying the marker.
 * Budget: stdin grace + term grace + 0.5 s; nothing may survive.
 */
import { ratioFigure, type Figure } from './result';
import type { ServerConfig } from '../main/host/registry/schema';
import {
  FEATURE_SERVER,
  MARKER_ENV,
  NODE,
  STUBBORN_SERVER,
  assertAllReady,
  createBenchHost,
  findMarkedProcesses,
  marker,
  nodeServer,
  now,
  waitForMarkedProcesses,
} from './support';

export interface ShutdownOptions {
  readonly servers: number;
  readonly stdinGraceMs: number;
  readonly termGraceMs: number;
}

const SLACK_MS = 500;

/** Waits until at least `count` marked processes are alive; throws with what it saw otherwise. */
async function waitForProcesses(mark: string, count: number, timeoutMs: number): Promise<void> {
  const alive = (await waitForMarkedProcesses(mark, count, timeoutMs)).length;
  if (alive < count) throw new Error(`expected ${count} marked processes before shutdown, saw ${alive}`);
}

export async function benchShutdown({ servers: count, stdinGraceMs, termGraceMs }: ShutdownOptions): Promise<Figure> {
  const mark = marker('shutdown');
  const servers: Record<string, ServerConfig> = {
    // stubborn + its grandchild
    'stubborn-direct': nodeServer(STUBBORN_SERVER, [], mark),
    // sh (kept alive by the trailing command, so it really is a wrapper) + stubborn + its grandchild
    'stubborn-sh': {
      command: 'sh',
      args: ['-c', `"${NODE}" "${STUBBORN_SERVER}"; exit $?`],
      env: { [MARKER_ENV]: mark },
    },
  };
  for (let i = 0; i < count - 2; i++) {
    servers[`polite-${i}`] = nodeServer(FEATURE_SERVER, ['--name', `polite-${i}`], mark);
  }
  const expectedProcesses = count + 2 + 1;
  const budgetMs = stdinGraceMs + termGraceMs + SLACK_MS;

  const bench = await createBenchHost('shutdown', servers, { stopGraces: { stdinGraceMs, termGraceMs } });
  const elapsedMs = await (async () => {
    try {
      await bench.host.servers.startAll();
      assertAllReady(bench.host);
      await waitForProcesses(mark, expectedProcesses, 10_000);
      const started = now();
      await bench.dispose();
      return now() - started;
    } finally {
      await bench.dispose(); // a no-op after the measured one; the teardown when setup failed
    }
  })();
  const survivors = findMarkedProcesses(mark);

  const problems: string[] = [];
  if (survivors.length > 0) {
    problems.push(`${survivors.length} survivor(s): ${survivors.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`);
  }
  return ratioFigure({
    name: `shutdown (${count}, 2 stubborn)`,
    measured: `${(elapsedMs / 1000).toFixed(2)} s of a ${(budgetMs / 1000).toFixed(1)} s budget, ${survivors.length} survivors`,
    value: elapsedMs / budgetMs,
    target: 1,
    problems,
    notes: [
      `stdin grace ${stdinGraceMs} ms + term grace ${termGraceMs} ms + ${SLACK_MS} ms; ` +
        `${expectedProcesses} marked processes before dispose (servers, one sh wrapper, two grandchildren), ${survivors.length} after`,
    ],
  });
}
