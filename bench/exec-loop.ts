/**
 * `harbor exec` loops (#32 goal 4): a script calling one tool of one stdio server again and again,
 * against a bare SDK client doing the same in a fresh connection, in the same run, interleaved.
 * Two figures:
 * - per call after the first: the script's own clock around its loop (Harbor's sandbox, consent
 *   gate, Host and transport per call) against the bare client's loop of the same calls;
 * - the first call: from the script's first call to its answer (with a warm catalog cache the
 *   server starts at that call) less the bare client's spawn + connect + first call — what Harbor
 *   adds beyond the server's own start.
 * The sandbox's clock is `Date.now()` (whole milliseconds): the loop is long enough for that.
 * Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { Figure } from './result';
import { ratioFigure } from './result';
import { FEATURE_SERVER, MARKER_ENV, NODE, REPO, freshDir, marker, median, now } from './support';

const CLI = join(REPO, 'out/main/cli.js');
/** Calls after the first, per run. */
const LOOP = 60;
const LOOP_TARGET = 1.5;
const FIRST_CALL_TARGET_MS = 20;
const SERVER_ARGS = [FEATURE_SERVER, '--name', 'exec-loop'];
const ARGS = { text: 'hello, harbor' };
const SCRIPT = `
const args = ${JSON.stringify(ARGS)};
const started = Date.now();
await tools.bench.echo(args);
const first = Date.now() - started;
const loopStarted = Date.now();
for (let i = 0; i < ${LOOP}; i += 1) await tools.bench.echo(args);
return { first, loop: Date.now() - loopStarted };`;

interface Run {
  /** The first call, ms (Harbor: the script's clock; bare: spawn + connect + first call). */
  readonly firstMs: number;
  /** Per call after the first, ms. */
  readonly perCallMs: number;
}

function harborRun(config: string, data: string): Run {
  const run = spawnSync(NODE, [CLI, '--config', config, '--data-dir', data, 'exec', '-', '--yes', '--max-calls', String(LOOP + 10)], {
    encoding: 'utf8',
    input: SCRIPT,
    env: { ...process.env, [MARKER_ENV]: marker('exec-loop-harbor') },
  });
  if (run.status !== 0) throw new Error(`harbor exec exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const answer = JSON.parse(run.stdout) as { first?: unknown; loop?: unknown };
  if (typeof answer.first !== 'number' || typeof answer.loop !== 'number') throw new Error(`harbor exec answered ${run.stdout.slice(0, 500)}`);
  return { firstMs: answer.first, perCallMs: answer.loop / LOOP };
}

async function bareRun(): Promise<Run> {
  const started = now();
  const client = new Client({ name: 'bench-bare', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const env = { ...getDefaultEnvironment(), [MARKER_ENV]: marker('exec-loop-bare') };
  try {
    await client.connect(new StdioClientTransport({ command: NODE, args: SERVER_ARGS, env, stderr: 'pipe' }));
    const check = (result: { isError?: boolean }) => {
      if (result.isError) throw new Error('the bare client: echo failed');
    };
    check(await client.callTool({ name: 'echo', arguments: ARGS }));
    const firstMs = now() - started;
    const loopStarted = now();
    for (let i = 0; i < LOOP; i += 1) check(await client.callTool({ name: 'echo', arguments: ARGS }));
    return { firstMs, perCallMs: (now() - loopStarted) / LOOP };
  } finally {
    await client.close();
  }
}

export async function benchExecLoop({ runs }: { readonly runs: number }): Promise<Figure[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
  const dir = freshDir('exec-loop');
  const config = join(dir, 'exec-loop.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { bench: { command: NODE, args: SERVER_ARGS, trusted: true } } }));
  const data = join(dir, 'data');
  mkdirSync(data, { recursive: true });
  // The first run fills the catalog cache (and the era cache): from then on the server starts at the first call.
  harborRun(config, data);
  await bareRun();
  const harbor: Run[] = [];
  const bare: Run[] = [];
  for (let i = 0; i < runs; i += 1) {
    harbor.push(harborRun(config, data));
    bare.push(await bareRun());
  }
  const [hLoop, bLoop, hFirst, bFirst] = [
    harbor.map((r) => r.perCallMs),
    bare.map((r) => r.perCallMs),
    harbor.map((r) => r.firstMs),
    bare.map((r) => r.firstMs),
  ].map(median) as [number, number, number, number];
  const loopFigure = ratioFigure({
    name: 'harbor exec loop: per call after the first / a bare SDK loop',
    value: hLoop / bLoop,
    target: LOOP_TARGET,
    measured: `per call: harbor exec ${hLoop.toFixed(2)} ms, bare SDK client ${bLoop.toFixed(2)} ms (medians of ${runs} interleaved runs of ${LOOP} calls)`,
  });
  const firstFigure: Figure = {
    name: 'harbor exec loop: the first call beyond the server’s own start',
    value: hFirst - bFirst,
    unit: 'ms',
    target: { at: 'most', value: FIRST_CALL_TARGET_MS },
    measured: `first call: harbor exec ${hFirst.toFixed(0)} ms (the script's clock; the server starts at this call), a bare SDK client's spawn + connect + first call ${bFirst.toFixed(0)} ms (medians of ${runs})`,
    problems: [],
    notes: [],
  };
  return [loopFigure, firstFigure];
}
