#!/usr/bin/env node
// `npm run bench`: Harbor's benchmarks (bench/main.ts lists them) — each figure measured side by
// side with its floor or its bare counterpart in this run and held against its target; one table
// at the end, every figure with the machine's facts in bench/results/latest.json.
//
// 1. builds bench/main.ts (which imports main/host/** as TypeScript) with Vite's SSR build into
//    test/output/bench/bench.mjs (gitignored); node builtins and npm dependencies stay external
//    and resolve from node_modules at run time;
// 2. runs it in a fresh Node process (no build-tool state in the measured process), passing the
//    arguments through (--check, --only NAME, --calls N, --out FILE);
// 3. afterwards, whatever happened (crash, Ctrl-C), SIGKILLs every process that still carries
//    this run's env marker and removes the run's scratch dir.
//
// Exit: the benchmark's own code (0 ok / report only; 1 a target missed under --check; 2 could not
// run), 2 when the build fails.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'test/output/bench');
const benchJs = join(outDir, 'bench.mjs');

async function buildBench() {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      sourcemap: true,
      minify: false,
      rolldownOptions: {
        // The code sandbox's worker thread is an entry of its own, found beside bench.mjs at run time.
        input: { bench: join(root, 'bench/main.ts'), 'sandbox-worker': join(root, 'main/host/code-mode/sandbox-worker.ts') },
        output: { format: 'es', entryFileNames: '[name].mjs' },
      },
    },
  });
  if (!existsSync(benchJs)) throw new Error(`the build did not produce ${benchJs}`);
}

/**
 * Living processes with an environment value starting with `prefix` (every marker of this run
 * does). Linux /proc only; elsewhere there is nothing to scan and the bench's own cleanup counts.
 */
function markedProcesses(prefix) {
  if (!existsSync('/proc/self/environ')) return [];
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (!environ.split('\0').some((entry) => entry.slice(entry.indexOf('=') + 1).startsWith(prefix))) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function sweep(prefix) {
  const pids = markedProcesses(prefix);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  return pids.length;
}

try {
  await buildBench();
} catch (error) {
  process.stderr.write(`bench: build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

const runId = `harbor-bench-${process.pid}-${randomBytes(4).toString('hex')}`;
const scratch = mkdtempSync(join(tmpdir(), 'harbor-bench-'));
// --expose-gc: the host-scale benchmark weighs the Host's heap after collecting garbage.
const child = spawn(process.execPath, ['--expose-gc', benchJs, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, HARBOR_BENCH_REPO: root, HARBOR_BENCH_RUN_ID: runId, HARBOR_BENCH_SCRATCH: scratch },
});
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);

const code = await new Promise((done) => {
  child.once('error', (error) => {
    process.stderr.write(`bench: could not start ${benchJs}: ${error.message}\n`);
    done(2);
  });
  child.once('exit', (exitCode, signal) => done(exitCode ?? (signal ? 2 : 0)));
});

const leaked = sweep(runId);
if (leaked > 0) process.stderr.write(`bench: killed ${leaked} process(es) the benchmark left behind\n`);
rmSync(scratch, { recursive: true, force: true });
process.exit(code);
