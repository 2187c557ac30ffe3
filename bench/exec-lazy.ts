/**
 * `harbor exec` starts a server at its first call when its catalog is cached (#31.22): a script
 * calling one tool, with twelve registered stdio servers (the recorded `time` catalog each) and a
 * warm catalog cache, against the same script with that one server alone. Runs interleaved; the
 * ratio of the wall-time medians is held against the target. A cold run (no cache: every server
 * starts, as before) is reported beside it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ratioFigure, type Figure } from './result';
import { NODE, REPO, median, now } from './support';

const CLI = join(REPO, 'out/main/cli.js');
const SERVERS = 12;
const TARGET = 1.5;
const SCRIPT = `return await tools.s0.get_current_time({ timezone: 'UTC' })`;

function execTimed(config: string, data: string): number {
  const started = now();
  const run = spawnSync(NODE, [CLI, '--config', config, '--data-dir', data, 'exec', '-', '--yes'], { encoding: 'utf8', input: SCRIPT });
  const ms = now() - started;
  if (run.status !== 0) throw new Error(`harbor exec exited ${run.status}: ${run.stderr}`);
  return ms;
}

export function benchExecLazy(dir: string, runs: number): Figure {
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
  const warm: number[] = [];
  const alone: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    warm.push(execTimed(many.config, many.data));
    alone.push(execTimed(one.config, one.data));
  }
  for (let i = 0; i < 2; i += 1) {
    rmSync(join(many.data, 'catalog-cache'), { recursive: true, force: true });
    cold.push(execTimed(many.config, many.data));
  }
  const warmMs = median(warm);
  const aloneMs = median(alone);
  return ratioFigure({
    name: `harbor exec: ${SERVERS} servers, one used, warm catalog cache / that server alone`,
    value: warmMs / aloneMs,
    target: TARGET,
    measured: `wall time (medians of ${runs}, interleaved): ${SERVERS} servers ${warmMs.toFixed(0)} ms, one server ${aloneMs.toFixed(0)} ms`,
    notes: [`${SERVERS} servers without a catalog cache (every server starts): ${median(cold).toFixed(0)} ms (median of ${cold.length})`],
  });
}
