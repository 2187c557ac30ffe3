#!/usr/bin/env node
// `npm run conformance`: the official MCP conformance suite (client side) against Harbor's own
// connection code, for both frozen requirement sets (2026-07-28 and the legacy-lifecycle
// 2025-11-25), with test/conformance/baseline.yml as the expected-failures baseline.
//
// 1. builds the adapter test/conformance/client.ts → test/output/conformance/client.mjs (Vite);
// 2. runs `conformance client --requirements <set>` for each set inside a loopback-only network
//    namespace (`unshare -n`): the suite's mock servers listen on every interface, and nothing
//    here should be reachable from outside while they do;
// 3. prints the runner's summary and baseline verdict per set, then a per-scenario table built
//    from the results' checks.json files.
//
// Exit 0 only when both runs pass their baseline check: no failure outside the baseline and no
// stale (now passing) entry in it. The runner checks both, for scored scenarios only; this script
// also rejects baseline entries that name no scored scenario of either set, which the runner
// would silently ignore.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SETS = ['2026-07-28', '2025-11-25'];
const outDir = join(root, 'test/output/conformance');
const clientJs = join(outDir, 'client.mjs');
const baselinePath = join(root, 'test/conformance/baseline.yml');
const conformanceJs = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIO_TIMEOUT_MS = '30000';

function fail(message) {
  process.stderr.write(`\nconformance: ${message}\n`);
  process.exit(1);
}

/** The suite needs Node >= 22; the project ships Node 24 as a dev dependency. */
function findNode() {
  const local = join(root, 'node_modules/node/bin/node');
  if (existsSync(local)) return local;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return fail(`needs Node >= 22 (the suite fails to load on ${process.version}); run "npm ci" so node_modules/node is installed.`);
}

/**
 * How to enter a loopback-only network namespace: `unshare -n` as root (CI), else `unshare -rn`
 * (a user namespace) where unprivileged ones are allowed. Refuses to run otherwise rather than
 * quietly exposing the mock servers on every interface.
 */
function namespaceArgs() {
  const tried = [];
  for (const flags of [['-n'], ['-r', '-n']]) {
    const probe = spawnSync('unshare', [...flags, 'bash', '-c', 'ip link set lo up'], { encoding: 'utf8' });
    if (!probe.error && probe.status === 0) return flags;
    tried.push(`unshare ${flags.join(' ')}: ${probe.error ? probe.error.message : (probe.stderr || `exit ${probe.status}`).trim()}`);
  }
  return fail(
    `cannot create a loopback-only network namespace (unshare from util-linux, ip from iproute2).\n  ${tried.join('\n  ')}\n` +
      `The suite's mock servers bind all interfaces, so they are only ever run inside one. Run as root ` +
      `(as .ci/run does) or where unprivileged user namespaces are allowed.`,
  );
}

/** `client:` entries of the baseline: a plain YAML list, one scenario per `- name` line. */
function readBaseline() {
  const entries = [];
  let inClient = false;
  for (const raw of readFileSync(baselinePath, 'utf8').split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (!line.trim()) continue;
    if (/^\S/.test(line)) {
      inClient = /^client:\s*(\[\s*\])?$/.test(line);
      continue;
    }
    const item = /^\s+-\s+(\S+)$/.exec(line);
    if (inClient && item) entries.push(item[1]);
  }
  return entries;
}

/** Scored and unscored client scenarios of a requirement set, from `conformance list`. */
function listSet(node, set) {
  const r = spawnSync(node, [conformanceJs, 'list', '--client', '--requirements', set], { encoding: 'utf8' });
  if (r.status !== 0) fail(`"conformance list --requirements ${set}" failed:\n${r.stderr}`);
  const scored = [];
  const unscored = [];
  let section;
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('Client scenarios')) section = scored;
    else if (line.startsWith('Server scenarios')) section = undefined;
    else if (line.startsWith('Run and reported')) section = unscored;
    const m = /^\s+-\s+(\S+)(?:\s+\[(\w+)\])?$/.exec(line);
    if (m && section && (section === scored || m[2] === 'client')) section.push(m[1]);
  }
  return { scored, unscored };
}

async function buildAdapter() {
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.conformance.config.ts'), logLevel: 'warn' });
  if (!existsSync(clientJs)) fail(`the adapter build did not produce ${relative(root, clientJs)}`);
}

/** Runs one requirement set in its own network namespace; resolves with exit code and output. */
function runSet(node, set, unshareFlags) {
  const resultsDir = join(outDir, `results-${set}`);
  rmSync(resultsDir, { recursive: true, force: true });
  const args = [
    conformanceJs, 'client',
    // The runner splits --command on spaces (and runs it through a shell): paths must have none.
    '--command', `${node} ${clientJs}`,
    '--requirements', set,
    '--expected-failures', baselinePath,
    '-o', resultsDir,
    '--timeout', SCENARIO_TIMEOUT_MS,
  ];
  // "$0" "$@" keeps every argument intact through bash -c.
  const child = spawn('unshare', [...unshareFlags, 'bash', '-c', 'ip link set lo up && exec "$0" "$@"', node, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const stop = () => child.kill('SIGTERM');
  process.once('SIGINT', stop);
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      process.off('SIGINT', stop);
      const log = join(outDir, `runner-${set}.log`);
      writeFileSync(log, `${stdout}\n--- stderr ---\n${stderr}`);
      done({ set, code: code ?? 1, signal, stdout, resultsDir, log });
    });
  });
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The runner's own verdict: its Total line and the baseline check after it. */
function summaryLines(stdout) {
  const lines = stripAnsi(stdout).trimEnd().split('\n');
  const total = lines.findIndex((l) => l.startsWith('Total:'));
  // No Total line: the runner failed early; its last lines say why.
  return total === -1 ? lines.slice(-20) : lines.slice(total);
}

/** checks.json of every scenario in a results dir, keyed by scenario name. */
function readResults(dir) {
  const results = new Map();
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = join(d, entry.name);
      if (existsSync(join(full, 'checks.json'))) {
        const scenario = relative(dir, full).replace(/\\/g, '/').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
        const checks = JSON.parse(readFileSync(join(full, 'checks.json'), 'utf8'));
        const count = (s) => checks.filter((c) => c.status === s).length;
        results.set(scenario, { success: count('SUCCESS'), failure: count('FAILURE'), warning: count('WARNING'), skipped: count('SKIPPED') });
      } else {
        walk(full);
      }
    }
  };
  walk(dir);
  return results;
}

function cell(result, scored, inBaseline) {
  if (!result) return '—';
  const judged = result.success + result.failure + result.warning;
  const pass = result.failure === 0 && result.warning === 0;
  let text = `${pass ? 'PASS' : 'FAIL'} ${result.success}/${judged}`;
  if (result.warning) text += ` (${result.warning} warn)`;
  if (!scored) text += ' (unscored)';
  else if (inBaseline) text += ' (baseline)';
  return text;
}

async function main() {
  const node = findNode();
  if (/\s/.test(node) || /\s/.test(clientJs)) fail(`the conformance runner splits --command on spaces; move the checkout to a path without spaces (${root}).`);
  const unshareFlags = namespaceArgs();
  mkdirSync(outDir, { recursive: true });
  const baseline = readBaseline();
  const sets = new Map(SETS.map((set) => [set, listSet(node, set)]));
  const allScored = new Set([...sets.values()].flatMap((s) => s.scored));
  const unknownEntries = baseline.filter((e) => !allScored.has(e.split(':')[0]));
  if (unknownEntries.length > 0) {
    fail(
      `${relative(root, baselinePath)} lists scenarios that are scored in neither requirement set: ` +
        `${unknownEntries.join(', ')}. The runner ignores such entries (unscored scenarios never fail a run), ` +
        `so they could never go stale: remove them.`,
    );
  }

  process.stdout.write('=== conformance: building the adapter (vite.conformance.config.ts)\n');
  await buildAdapter();

  const runs = [];
  for (const set of SETS) {
    process.stdout.write(`\n=== conformance client --requirements ${set} (loopback-only namespace: unshare ${unshareFlags.join(' ')})\n`);
    const started = Date.now();
    const run = await runSet(node, set, unshareFlags);
    run.seconds = (Date.now() - started) / 1000;
    runs.push(run);
    for (const line of summaryLines(run.stdout)) process.stdout.write(`${line}\n`);
    process.stdout.write(`(runner exit ${run.signal ?? run.code}, ${run.seconds.toFixed(1)} s; full log: ${relative(root, run.log)})\n`);
  }

  // Per-scenario table: scored scenarios of either set first, then the unscored ones.
  const results = new Map(runs.map((r) => [r.set, readResults(r.resultsDir)]));
  const scenarios = [...new Set([...allScored, ...[...sets.values()].flatMap((s) => s.unscored)])];
  const baselineSet = new Set(baseline);
  const rows = scenarios.map((scenario) => [
    scenario,
    ...SETS.map((set) => cell(results.get(set)?.get(scenario), sets.get(set).scored.includes(scenario), baselineSet.has(scenario))),
  ]);
  const header = ['scenario', ...SETS];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  process.stdout.write(`\n=== per-scenario results (checks passed / judged; — = not in that set)\n`);
  process.stdout.write(`${fmt(header)}\n${fmt(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of rows) process.stdout.write(`${fmt(row)}\n`);

  // Every scored scenario of a set must have produced results, or the run did not really happen.
  const missing = runs.flatMap((r) => sets.get(r.set).scored.filter((s) => !results.get(r.set)?.has(s)).map((s) => `${r.set}: ${s}`));

  process.stdout.write('\n=== verdict\n');
  let ok = true;
  for (const run of runs) {
    const total = stripAnsi(run.stdout).split('\n').find((l) => l.startsWith('Total:')) ?? '(no summary)';
    const good = run.code === 0 && !run.signal;
    ok &&= good;
    process.stdout.write(`${good ? 'ok  ' : 'FAIL'} --requirements ${run.set}: ${total}${good ? '' : ` — baseline check failed (exit ${run.signal ?? run.code})`}\n`);
  }
  if (missing.length > 0) {
    ok = false;
    process.stdout.write(`FAIL scored scenarios without results: ${missing.join(', ')}\n`);
  }
  process.stdout.write(ok ? 'conformance: passed (all failures are in the baseline; no stale entries)\n' : 'conformance: FAILED\n');
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
