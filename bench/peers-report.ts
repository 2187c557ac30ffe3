/**
 * The peers benchmark's report (bench/peers.ts): one Markdown table (medians, p90s, peak memory,
 * ratios to the bare SDK client), written into docs/benchmarks.md between its markers with the
 * machine, the versions and the date; and issue #32's goals, each held or not with its ratio.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { TASKS, stats, type PeersResult } from './peers';
import { REPO } from './support';

const START = '<!-- peers:start (npm run bench -- --peers writes this part) -->';
const END = '<!-- peers:end -->';
/** Goal 1: a one-shot command's wall time against the floor's; goal 2: its peak memory. */
const TIME_GOAL = 1.2;
const MEMORY_GOAL = 1.3;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export interface Goal {
  readonly name: string;
  readonly ratio: number;
  readonly target: number;
  readonly held: boolean;
}

export function peersGoals(result: PeersResult): Goal[] {
  const goals: Goal[] = [];
  for (const task of TASKS) {
    const floor = stats(result.samples[task.id]?.floor);
    const harbor = stats(result.samples[task.id]?.harbor);
    if (!floor || !harbor) continue;
    const time = harbor.median / floor.median;
    goals.push({ name: `goal 1, time: harbor ${task.verb} ${task.server} / bare SDK client`, ratio: time, target: TIME_GOAL, held: time <= TIME_GOAL });
    if (floor.peakMb !== undefined && harbor.peakMb !== undefined) {
      const memory = harbor.peakMb / floor.peakMb;
      goals.push({ name: `goal 2, peak memory: harbor ${task.verb} ${task.server} / bare SDK client`, ratio: memory, target: MEMORY_GOAL, held: memory <= MEMORY_GOAL });
    }
  }
  return goals;
}

export function peersTable(result: PeersResult): string {
  const head = `| one process that… | ${result.clients.map((c) => c.label).join(' | ')} |`;
  const rule = `|---|${result.clients.map(() => '---').join('|')}|`;
  const rows = TASKS.filter((task) => result.samples[task.id]).map((task) => {
    const floor = stats(result.samples[task.id]?.floor);
    const cells = result.clients.map((client) => {
      const s = stats(result.samples[task.id]?.[client.id]);
      if (!s) return '—';
      const ratio = floor && client.id !== 'floor' ? ` (${(s.median / floor.median).toFixed(2)}×)` : '';
      const peak = s.peakMb !== undefined ? `, ${s.peakMb.toFixed(0)} MB` : '';
      return `${seconds(s.median)}${ratio}, p90 ${seconds(s.p90)}${peak}`;
    });
    return `| ${task.label} | ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}

export function writePeersDoc(result: PeersResult, goals: readonly Goal[], node: string): string {
  const file = join(REPO, 'docs/benchmarks.md');
  const load = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const section = [
    START,
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${node}, ${process.platform}/${process.arch}; load average ${load(result.load.before)} before, ${load(result.load.after)} after; ${result.rounds} interleaved rounds.`,
    '',
    `Versions: ${result.clients.map((c) => c.version).join(', ')}; servers @modelcontextprotocol/server-everything and @modelcontextprotocol/server-memory, each started as \`node …/dist/index.js\`.`,
    '',
    'Each cell: median wall time from spawn to exit (its ratio to the bare SDK client), p90, and the median of the client\'s own peak RSS (the server\'s memory not counted). "—": the client cannot do it without a person at the keyboard.',
    '',
    peersTable(result),
    '',
    ...result.skipped.map((s) => `- ${s}`),
    ...goals.map((g) => `- ${g.name}: ${g.ratio.toFixed(2)}× (target ≤ ${g.target}×) — ${g.held ? 'held' : 'not held'}`),
    END,
  ].join('\n');
  const intro = [
    '# Benchmarks',
    '',
    '`npm run bench` measures Harbor against its floors (bench/main.ts lists them; README shows the table). `npm run bench -- --peers` measures one-shot CLI commands against a bare SDK client and the other command-line MCP clients (bench/peers.ts); the part below is written by it. The ratios are the figures that count: absolute times vary with the machine and its load.',
    '',
  ].join('\n');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : `${intro}\n${START}\n${END}\n`;
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  const next = from >= 0 && to > from ? `${text.slice(0, from)}${section}${text.slice(to + END.length)}` : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  return file;
}
