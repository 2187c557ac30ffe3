/**
 * The CLI's own start, on the built CLI (out/main/cli.js; `npm run build` first):
 *
 * - `harbor --version` against Node starting and doing nothing (`node -e 0`), runs interleaved:
 *   what Harbor adds to the floor every command pays. Held against the target in CPU time (each
 *   command's own user + system time, which load from elsewhere on a shared machine barely
 *   moves); the wall-time medians are reported beside it, and so is the floor of any ES module
 *   CLI: one that only reads its package.json and prints the version.
 * - `harbor tools --yes` with one stdio server, with and without the reaper that kills servers if
 *   Harbor is killed (HARBOR_REAPER=0 turns it off), runs interleaved: what it costs a one-shot
 *   command (#33 finding 5), held in CPU time (the reaper's own included: Harbor waits for it),
 *   wall time beside it.
 * - `harbor tools` (no servers, and one stdio server): which npm packages it loads, recorded by a
 *   module hook. It needs the MCP SDK (and, with servers, the tokenizer for each tool's `tokens`);
 *   it must not load the AI SDK, model providers, the code sandbox's engine or the schema validator.
 *   Beside it, what those would cost: each loaded alone in a fresh Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { endedChildrenCpuMs } from './cpu';
import type { Figure } from './result';
import { NODE, REPO, freshDir, median, now } from './support';

export interface CliStartOptions {
  readonly runs: number;
}

const CLI = join(REPO, 'out/main/cli.js');
const VERSION_TARGET = 1.5;
/** Packages `harbor tools` has no use for: the chat's model and SDK, run_code's engine, Ajv and RE2, the bundles' zip reader. */
const NOT_FOR_TOOLS = /^(ai|@ai-sdk\/.*|@vercel\/oidc|@jitl\/.*|quickjs-emscripten-core|ajv|ajv-formats|re2js|yauzl)$/;
const HEAVY = ['ai', 'ajv', 'gpt-tokenizer/encoding/o200k_base', 'zod', '@modelcontextprotocol/client'];

const HOOK = `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); appendFileSync(process.env.HARBOR_BENCH_MODULES, result.url + '\\n'); return result; } });
`;

interface Timed {
  readonly ms: number;
  /** The command's own CPU time (user + system). */
  readonly cpuMs: number;
}

/** The least a Node ES module CLI can do for --version: read package.json, print one line. */
const VERSION_FLOOR = `import { readFileSync } from 'node:fs';
const pkg = JSON.parse(readFileSync(${JSON.stringify(join(REPO, 'package.json'))}, 'utf8'));
process.stdout.write(\`\${pkg.productName} \${pkg.version}\\n\`);
`;

function timed(args: readonly string[]): Timed {
  const cpuBefore = endedChildrenCpuMs();
  const started = now();
  const run = spawnSync(NODE, [...args], { encoding: 'utf8', cwd: REPO });
  const ms = now() - started;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return { ms, cpuMs: endedChildrenCpuMs() - cpuBefore };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

interface ToolsRun {
  readonly ms: number;
  readonly packages: readonly string[];
}

/** `harbor tools` with a module hook: wall time and the npm packages it resolved. */
function toolsRun(dir: string, registry: Record<string, unknown>, label: string): ToolsRun {
  const hook = join(dir, 'record-modules.mjs');
  if (!existsSync(hook)) writeFileSync(hook, HOOK);
  const record = join(dir, `modules-${label}.txt`);
  writeFileSync(record, '');
  const config = join(dir, `${label}.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: registry }));
  const data = join(dir, `data-${label}`);
  mkdirSync(data, { recursive: true });
  const started = now();
  const run = spawnSync(NODE, ['--import', pathToFileURL(hook).href, CLI, '--config', config, '--data-dir', data, 'tools', '--yes'], {
    encoding: 'utf8',
    env: { ...process.env, HARBOR_BENCH_MODULES: record },
  });
  const ms = now() - started;
  if (run.status !== 0) throw new Error(`harbor tools (${label}) exited ${run.status}: ${run.stderr}`);
  const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  const packages = [...new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort();
  return { ms, packages };
}

/** How much CPU the reaper may add to a one-shot command with a stdio server (means of the runs). */
const REAPER_TARGET_MS = 20;

/** `harbor tools --yes` on one stdio server, timed, with the reaper on or off. */
function toolsTimed(config: string, data: string, reaper: boolean): Timed {
  const cpuBefore = endedChildrenCpuMs();
  const started = now();
  const run = spawnSync(NODE, [CLI, '--config', config, '--data-dir', data, 'tools', '--yes'], { encoding: 'utf8', env: { ...process.env, HARBOR_REAPER: reaper ? '1' : '0' } });
  const ms = now() - started;
  if (run.status !== 0) throw new Error(`harbor tools (reaper ${reaper ? 'on' : 'off'}) exited ${run.status}: ${run.stderr}`);
  return { ms, cpuMs: endedChildrenCpuMs() - cpuBefore };
}

/** The reaper's cost to `harbor tools --yes` with one stdio server: `runs` interleaved pairs. */
function reaperCost(dir: string, server: Record<string, unknown>, runs: number): Figure {
  const config = join(dir, 'reaper.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { time: server } }));
  const data = join(dir, 'data-reaper');
  mkdirSync(data, { recursive: true });
  const on: Timed[] = [];
  const off: Timed[] = [];
  toolsTimed(config, data, true);
  toolsTimed(config, data, false);
  for (let i = 0; i < runs; i += 1) {
    // Alternating which goes first, so neither always follows the other's leftovers.
    const onFirst = i % 2 === 0;
    if (onFirst) on.push(toolsTimed(config, data, true));
    off.push(toolsTimed(config, data, false));
    if (!onFirst) on.push(toolsTimed(config, data, true));
  }
  const onMs = median(on.map((t) => t.ms));
  const offMs = median(off.map((t) => t.ms));
  const onCpu = sum(on.map((t) => t.cpuMs)) / runs;
  const offCpu = sum(off.map((t) => t.cpuMs)) / runs;
  const pairs = on.map((t, i) => t.ms - off[i]!.ms);
  return {
    name: 'CLI start: what the reaper adds to harbor tools (one stdio server)',
    // In CPU time, as the --version figure: on a shared machine the wall time is mostly the others' load.
    value: onCpu - offCpu,
    unit: 'ms',
    target: { at: 'most', value: REAPER_TARGET_MS },
    measured: `CPU per run (Harbor, its server and the reaper): with ${onCpu.toFixed(0)} ms, without ${offCpu.toFixed(0)} ms (means of ${runs} interleaved pairs)`,
    problems: [],
    notes: [`wall time (medians): with the reaper ${onMs.toFixed(0)} ms, without ${offMs.toFixed(0)} ms; median of the pairs' differences ${median(pairs).toFixed(1)} ms`],
  };
}

/** What loading one package costs a fresh Node (median of 3). */
function loadCost(specifier: string): number {
  const runs = Array.from({ length: 3 }, () => {
    const run = spawnSync(NODE, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`], { encoding: 'utf8', cwd: REPO });
    return Number(run.stdout.trim());
  });
  return median(runs);
}

export async function benchCliStart({ runs }: CliStartOptions): Promise<Figure[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
  const dir = freshDir('cli-start');
  const floorScript = join(dir, 'version-floor.mjs');
  writeFileSync(floorScript, VERSION_FLOOR);
  const node: Timed[] = [];
  const version: Timed[] = [];
  const floor: Timed[] = [];
  timed(['-e', '0']);
  timed([CLI, '--version']);
  timed([floorScript]);
  for (let i = 0; i < runs; i += 1) {
    // Interleaved, so a burst of load hits all three.
    node.push(timed(['-e', '0']));
    version.push(timed([CLI, '--version']));
    floor.push(timed([floorScript]));
  }
  const nodeMs = median(node.map((t) => t.ms));
  const versionMs = median(version.map((t) => t.ms));
  // Summed over the runs: the kernel counts CPU time in clock ticks (10 ms), coarse for one run.
  const nodeCpu = sum(node.map((t) => t.cpuMs)) / runs;
  const versionCpu = sum(version.map((t) => t.cpuMs)) / runs;
  const floorCpu = sum(floor.map((t) => t.cpuMs)) / runs;

  const recorded = join(REPO, 'test/fixtures/tool-catalogs/servers/time.json');
  const catalogServer = join(REPO, 'test/fixtures/servers/legacy/catalog-server.mjs');
  const empty = Array.from({ length: 3 }, () => toolsRun(dir, {}, 'empty'));
  const oneServer = Array.from({ length: 3 }, () => toolsRun(dir, { time: { command: NODE, args: [catalogServer, '--catalog', recorded] } }, 'one-server'));
  const unneeded = (run: ToolsRun) => run.packages.filter((p) => NOT_FOR_TOOLS.test(p));
  const extra = [...new Set([...empty, ...oneServer].flatMap(unneeded))];
  const costs = HEAVY.map((specifier) => `${specifier} ${loadCost(specifier).toFixed(0)} ms`).join(', ');
  const reaper = reaperCost(dir, { command: NODE, args: [catalogServer, '--catalog', recorded] }, runs);

  return [
    {
      name: 'CLI start: harbor --version / node -e 0',
      value: versionCpu / nodeCpu,
      unit: '×',
      target: { at: 'most', value: VERSION_TARGET },
      measured: `CPU per run: harbor --version ${versionCpu.toFixed(0)} ms, Node starting and doing nothing ${nodeCpu.toFixed(0)} ms (means of ${runs}, interleaved)`,
      problems: [],
      notes: [
        `wall time (medians): harbor --version ${versionMs.toFixed(0)} ms, node -e 0 ${nodeMs.toFixed(0)} ms (${(versionMs / nodeMs).toFixed(2)}×)`,
        `the floor of an ES module CLI (reads package.json, prints the version): ${floorCpu.toFixed(0)} ms CPU (${(floorCpu / nodeCpu).toFixed(2)}×)`,
      ],
    },
    {
      name: 'CLI start: packages harbor tools loads but does not need',
      value: extra.length,
      unit: '',
      target: { at: 'most', value: 0 },
      measured:
        `no servers: ${median(empty.map((r) => r.ms)).toFixed(0)} ms, ${empty[0]!.packages.length} packages; ` +
        `one stdio server: ${median(oneServer.map((r) => r.ms)).toFixed(0)} ms, ${oneServer[0]!.packages.length} packages`,
      problems: extra.length > 0 ? [`loaded ${extra.join(', ')}`] : [],
      notes: [
        `one stdio server loads: ${oneServer[0]!.packages.join(', ')}`,
        `what a package costs a fresh Node to load (median of 3): ${costs}`,
      ],
    },
    reaper,
  ];
}
