/**
 * `harbor exec` starts a server at its first call when its catalog is cached (#31.22): a script
 * calling one tool, with twelve registered stdio servers (the recorded `time` catalog each) and a
 * warm catalog cache, against the same script with that one server alone. Runs interleaved; the
 * ratio of their CPU time (Harbor's and its servers', which load from elsewhere on a shared machine
 * barely moves) is held against the target, the wall-time medians beside it, and so is a cold run
 * (no cache: every server starts, as before). Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { endedChildrenCpuMs } from './cpu';
import { ratioFigure, type Figure } from './result';
import { NODE, REPO, freshDir, median, now } from './support';

const CLI = join(REPO, 'out/main/cli.js');
const SERVERS = 12;
const TARGET = 1.5;
const SCRIPT = `return await tools.s0.get_current_time({ timezone: 'UTC' })`;

interface Timed {
  readonly ms: number;
  /** Harbor's CPU time and its servers' (user + system). */
  readonly cpuMs: number;
}

function execTimed(config: string, data: string): Timed {
  const cpuBefore = endedChildrenCpuMs();
  const started = now();
  const run = spawnSync(NODE, [CLI, '--config', config, '--data-dir', data, 'exec', '-', '--yes'], { encoding: 'utf8', input: SCRIPT });
  const ms = now() - started;
  if (run.status !== 0) throw new Error(`harbor exec exited ${run.status}: ${run.stderr}`);
  return { ms, cpuMs: endedChildrenCpuMs() - cpuBefore };
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function benchExecLazy({ runs }: { readonly runs: number }): Promise<Figure> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
  const dir = freshDir('exec-lazy');
  const catalogServer = join(REPO, 'test/fixtures/servers/legacy/catalog-server.mjs');
  const recorded = join(REPO, 'test/fixtures/tool-catalogs/servers/time.json');
  const server = { command: NODE, args: [catalogServer, '--catalog', recorded], trusted: true };
  const registry = (count: number, label: string) => {
    const config = join(dir, `exec-${label}.json`);
    writeFileSync(config, JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, server])) }));
    const data = join(dir, `data-exec-${label}`);
    mkdirSync(data, { recursive: true });
    return { config, data };
  };
  const many = registry(SERVERS, 'many');
  const one = registry(1, 'one');
  // The first run of each fills the catalog cache (and the era cache); it is the cold figure's first sample.
  const cold = [execTimed(many.config, many.data)];
  execTimed(one.config, one.data);
  const warm: Timed[] = [];
  const alone: Timed[] = [];
  for (let i = 0; i < runs; i += 1) {
    warm.push(execTimed(many.config, many.data));
    alone.push(execTimed(one.config, one.data));
  }
  for (let i = 0; i < 2; i += 1) {
    rmSync(join(many.data, 'catalog-cache'), { recursive: true, force: true });
    cold.push(execTimed(many.config, many.data));
  }
  const [warmCpu, aloneCpu, coldCpu] = [warm, alone, cold].map((runs) => mean(runs.map((t) => t.cpuMs))) as [number, number, number];
  const [warmMs, aloneMs, coldMs] = [warm, alone, cold].map((runs) => median(runs.map((t) => t.ms))) as [number, number, number];
  return ratioFigure({
    name: `harbor exec: ${SERVERS} servers, one used, warm catalog cache / that server alone`,
    value: warmCpu / aloneCpu,
    target: TARGET,
    measured: `CPU per run (Harbor and its servers): ${SERVERS} servers ${warmCpu.toFixed(0)} ms, one server ${aloneCpu.toFixed(0)} ms (means of ${runs}, interleaved)`,
    notes: [
      `wall time (medians): ${SERVERS} servers ${warmMs.toFixed(0)} ms, one server ${aloneMs.toFixed(0)} ms (${(warmMs / aloneMs).toFixed(2)}×)`,
      `${SERVERS} servers without a catalog cache (every server starts, as before): CPU ${coldCpu.toFixed(0)} ms (${(coldCpu / aloneCpu).toFixed(2)}×), wall ${coldMs.toFixed(0)} ms (${cold.length} runs)`,
    ],
  });
}
