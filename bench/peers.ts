/**
 * `npm run bench -- --peers`: one-shot commands of Harbor's CLI against a bare SDK client doing
 * the same work (the floor) and the other command-line MCP clients, on server-everything and
 * server-memory over stdio (each started as `node …/dist/index.js`, the same Node for everyone).
 *
 * The peers and server-memory live in bench/peers/ with their own package.json and lock file,
 * installed there on first use (`npm ci`), so the project's own `npm ci` stays lean. A peer that
 * cannot run here (fastmcp needs Python and PyPI) is skipped with a note.
 *
 * Interleaved rounds: each round runs every client once on every task, in a new order each round,
 * so a burst of load from elsewhere on a shared machine hits them all. Each run is checked for its
 * expected output; its wall time is spawn to exit, its peak memory the client's own maxRSS (Node
 * clients: recorded at exit by a --require hook; the server's memory is not counted). Medians and
 * p90s; the ratios to the floor are the figures that count (absolute times vary with the machine).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { NODE, REPO, freshDir, median, now, percentile } from './support';

const PEERS = join(REPO, 'bench/peers');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MEMORY = join(PEERS, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const INSPECTOR = join(PEERS, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const WONG2 = join(PEERS, 'node_modules/@wong2/mcp-cli/src/cli.js');
const BARE = join(REPO, 'bench/fixtures/bare-client.mjs');
const HARBOR = join(REPO, 'bin/harbor.js');

/** At exit, each Node process writes its own peak RSS (kB), CPU time (µs) and script to PEAK_DIR/<pid>. */
const PEAK_HOOK = `process.on('exit', () => { try { const u = process.resourceUsage(); require('node:fs').writeFileSync(require('node:path').join(process.env.HARBOR_PEAK_DIR, String(process.pid)), JSON.stringify({ kb: u.maxRSS, cpuUs: u.userCPUTime + u.systemCPUTime, script: process.argv[1] || '' })); } catch { /* never fail the measured process for its measurement: its peak reads "–" */ } });\n`;

export type Verb = 'tools' | 'call' | 'resources' | 'prompts';
export interface Task {
  readonly id: string;
  readonly label: string;
  readonly server: 'everything' | 'memory';
  readonly verb: Verb;
  readonly tool?: string;
  readonly args?: string;
  /** Text every client's output must contain. */
  readonly expect: string;
}

export const TASKS: readonly Task[] = [
  { id: 'tools-everything', label: 'lists tools, server-everything', server: 'everything', verb: 'tools', expect: 'get-resource-links' },
  { id: 'call-everything', label: 'calls `echo`, server-everything', server: 'everything', verb: 'call', tool: 'echo', args: '{"message":"harbor-bench"}', expect: 'harbor-bench' },
  { id: 'tools-memory', label: 'lists tools, server-memory', server: 'memory', verb: 'tools', expect: 'read_graph' },
  { id: 'call-memory', label: 'calls `read_graph`, server-memory', server: 'memory', verb: 'call', tool: 'read_graph', args: '{}', expect: 'entities' },
  { id: 'resources-everything', label: 'lists resources, server-everything', server: 'everything', verb: 'resources', expect: 'demo://resource' },
  { id: 'prompts-everything', label: 'lists prompts, server-everything', server: 'everything', verb: 'prompts', expect: 'simple-prompt' },
];

export interface Client {
  readonly id: string;
  readonly label: string;
  readonly version: string;
  /** The command line for a task, or undefined when the client cannot do it. */
  readonly command: (task: Task) => readonly string[] | undefined;
}

export interface Sample {
  readonly ms: number;
  readonly peakMb: number | undefined;
  /** The client's own CPU time (user + system; with a launcher, of its Node processes but the server's). */
  readonly cpuMs: number | undefined;
}

export interface PeersResult {
  readonly clients: readonly Client[];
  readonly skipped: readonly string[];
  readonly rounds: number;
  /** samples[taskId][clientId] */
  readonly samples: Record<string, Record<string, Sample[]>>;
  readonly load: { readonly before: number[]; readonly after: number[] };
}

const serverPath = (task: Task) => (task.server === 'everything' ? EVERYTHING : MEMORY);
const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** npm ci in bench/peers/ when its node_modules is missing (first use). */
function installPeers(): void {
  if (existsSync(MEMORY) && existsSync(WONG2) && existsSync(INSPECTOR)) return;
  process.stdout.write('peers: installing bench/peers (first use: npm ci)…\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: PEERS, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`npm ci in ${PEERS} failed (exit ${run.status})`);
}

function clients(dir: string): { clients: Client[]; skipped: string[] } {
  const config = join(dir, 'harbor.json');
  const servers = { everything: { command: NODE, args: [EVERYTHING] }, memory: { command: NODE, args: [MEMORY] } };
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  const data = join(dir, 'harbor-data');
  mkdirSync(data, { recursive: true });
  const sdk = versionOf(join(REPO, 'node_modules/@modelcontextprotocol/client'));
  const list: Client[] = [
    {
      id: 'floor',
      label: 'bare SDK client',
      version: `@modelcontextprotocol/client ${sdk}`,
      command: (t) => [NODE, BARE, t.verb, ...(t.verb === 'call' ? [t.tool!, t.args!] : []), '--', NODE, serverPath(t)],
    },
    {
      id: 'harbor',
      label: 'Harbor',
      version: `harbor ${versionOf(REPO)}`,
      command: (t) => [NODE, HARBOR, '--config', config, '--data-dir', data, t.verb, t.server, ...(t.verb === 'call' ? [t.tool!, '--args', t.args!] : []), '--yes'],
    },
    {
      id: 'inspector',
      label: 'MCP Inspector CLI',
      version: `@modelcontextprotocol/inspector ${versionOf(join(PEERS, 'node_modules/@modelcontextprotocol/inspector'))}`,
      command: (t) => {
        const method = { tools: 'tools/list', resources: 'resources/list', prompts: 'prompts/list', call: 'tools/call' }[t.verb];
        const toolArgs = t.verb === 'call' ? ['--tool-name', t.tool!, ...Object.entries(JSON.parse(t.args!) as Record<string, string>).map(([k, v]) => ['--tool-arg', `${k}=${v}`]).flat()] : [];
        return [NODE, INSPECTOR, '--cli', NODE, serverPath(t), '--method', method, ...toolArgs];
      },
    },
    {
      id: 'wong2',
      label: '@wong2/mcp-cli',
      version: `@wong2/mcp-cli ${versionOf(join(PEERS, 'node_modules/@wong2/mcp-cli'))}`,
      // Lists only interactively; calls a tool non-interactively.
      command: (t) => (t.verb === 'call' ? [NODE, WONG2, '--config', config, 'call-tool', `${t.server}:${t.tool!}`, '--args', t.args!] : undefined),
    },
  ];
  const python = spawnSync('python3', ['-c', 'import fastmcp; print(fastmcp.__version__)'], { encoding: 'utf8' });
  const skipped =
    python.status === 0
      ? ['fastmcp: found, but its client is not wired into this benchmark yet']
      : ['fastmcp (Python): skipped — the fastmcp package is not installed for python3 here (this machine reaches npm and Debian only, not PyPI)'];
  return { clients: list, skipped };
}

function peakOf(dir: string, pid: number | undefined, serverScript: string): { peakMb: number | undefined; cpuMs: number | undefined } {
  // The client's own process, or (a launcher that starts another Node) the largest non-server Node it ran.
  const entries = readdirSync(dir).map((name) => ({ pid: Number(name), ...(JSON.parse(readFileSync(join(dir, name), 'utf8')) as { kb: number; cpuUs: number; script: string }) }));
  const own = entries.filter((e) => e.script !== serverScript);
  if (own.length === 0) return { peakMb: undefined, cpuMs: undefined };
  const kb = Math.max(...own.map((e) => e.kb), entries.find((e) => e.pid === pid)?.kb ?? 0);
  return { peakMb: kb / 1024, cpuMs: own.reduce((sum, e) => sum + e.cpuUs, 0) / 1000 };
}

async function runOnce(command: readonly string[], task: Task, scratch: string): Promise<Sample> {
  const peakDir = freshDir('peers-peak');
  const hook = join(scratch, 'peak-hook.cjs');
  if (!existsSync(hook)) writeFileSync(hook, PEAK_HOOK);
  const started = now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HARBOR_PEAK_DIR: peakDir, NODE_OPTIONS: `--require ${hook}` },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  });
  const ms = now() - started;
  if (code !== 0 || !out.includes(task.expect)) {
    throw new Error(`${command.slice(1, 3).join(' ')} … (${task.id}) exited ${code} without "${task.expect}" in its output:\n${out.slice(0, 400)}\n${err.slice(-600)}`);
  }
  return { ms, ...peakOf(peakDir, child.pid, serverPath(task)) };
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed + 1;
  for (let i = copy.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export interface PeersOptions {
  readonly rounds: number;
  /** Only these tasks (TASKS ids; default all). */
  readonly tasks?: readonly string[];
  /** Only these clients besides the floor, which always runs (default all). */
  readonly clients?: readonly string[];
}

export async function benchPeers(options: PeersOptions): Promise<PeersResult> {
  installPeers();
  const scratch = freshDir('peers');
  const all = clients(scratch);
  const skipped = all.skipped;
  const list = all.clients.filter((c) => c.id === 'floor' || !options.clients || options.clients.includes(c.id));
  const tasks = TASKS.filter((t) => !options.tasks || options.tasks.includes(t.id));
  const samples: Record<string, Record<string, Sample[]>> = {};
  const before = loadavg();
  // One unmeasured run of each: disk caches, Harbor's first-run files (as a returning user has them).
  for (const task of tasks) for (const client of list) {
    const command = client.command(task);
    if (command) await runOnce(command, task, scratch);
  }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const task of shuffled(tasks, round)) {
      for (const client of shuffled(list, round * 7 + task.id.length)) {
        const command = client.command(task);
        if (!command) continue;
        const sample = await runOnce(command, task, scratch);
        ((samples[task.id] ??= {})[client.id] ??= []).push(sample);
      }
    }
    process.stdout.write(`    peers: round ${round + 1}/${options.rounds} done (load ${loadavg().map((l) => l.toFixed(2)).join(' ')})\n`);
  }
  return { clients: list, skipped, rounds: options.rounds, samples, load: { before, after: loadavg() } };
}

export interface Stats {
  readonly median: number;
  readonly p90: number;
  readonly peakMb: number | undefined;
  readonly cpuMs: number | undefined;
}

export function stats(samples: readonly Sample[] | undefined): Stats | undefined {
  if (!samples || samples.length === 0) return undefined;
  const ms = samples.map((s) => s.ms);
  const peaks = samples.flatMap((s) => (s.peakMb === undefined ? [] : [s.peakMb]));
  const cpu = samples.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
  return { median: median(ms), p90: percentile(ms, 90), peakMb: peaks.length > 0 ? median(peaks) : undefined, cpuMs: cpu.length > 0 ? median(cpu) : undefined };
}
