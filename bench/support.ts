/**
 * What the three benchmarks share: where the repo and the fixtures are, a scratch area that is
 * always removed, Hosts over temp registries, env markers that find every process a benchmark
 * started (grandchildren included), and small statistics.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../main/host/host';
import type { ServerConfig } from '../main/host/registry/schema';
import { findMarkedProcesses, killMarkedProcesses, waitForMarkedProcesses } from '../test/fixtures/proc';

/** The repo root: scripts/bench.mjs passes it, because the bundle runs from test/output/bench. */
export const REPO = requiredEnv('HARBOR_BENCH_REPO');
/** Every marker of this run starts with it, so scripts/bench.mjs can sweep after a crash too. */
export const RUN_ID = requiredEnv('HARBOR_BENCH_RUN_ID');
/** The scratch dir scripts/bench.mjs made for this run (it removes it again, whatever happens). */
const SCRATCH = requiredEnv('HARBOR_BENCH_SCRATCH');

export const NODE = process.execPath;
export const FEATURE_SERVER = join(REPO, 'test/fixtures/servers/modern/feature-server.mjs');
export const STUBBORN_SERVER = join(REPO, 'test/fixtures/servers/adversarial/stubborn.mjs');
export const MARKER_ENV = 'HARBOR_SERVER_MARKER';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the benchmarks through "node scripts/bench.mjs".`);
  return value;
}

const markers = new Set<string>();

/** A marker for one group of processes (e.g. one benchmark arm); remembered for the final sweep. */
export function marker(label: string): string {
  const value = `${RUN_ID}-${label}`;
  markers.add(value);
  return value;
}

/** SIGKILLs whatever still carries one of this run's markers; returns how many there were. */
export function killEverything(): number {
  let killed = 0;
  for (const value of markers) killed += killMarkedProcesses(value);
  return killed;
}

export { findMarkedProcesses, waitForMarkedProcesses };

/** A fresh directory under the run's scratch dir (so its era cache starts empty). */
export function freshDir(label: string): string {
  mkdirSync(SCRATCH, { recursive: true });
  return mkdtempSync(join(SCRATCH, `${label}-`));
}

export function removeScratch(): void {
  rmSync(SCRATCH, { recursive: true, force: true });
}

/** A stdio server entry that runs `script` with this Node and carries `mark` in its env. */
export function nodeServer(script: string, args: readonly string[], mark: string): ServerConfig {
  return { command: NODE, args: [script, ...args], env: { [MARKER_ENV]: mark } };
}

/**
 * How long a Host here waits for a stdio server's answer to the era probe before it falls back to
 * the legacy handshake; a bare SDK arm doing "the same requests" must wait as long.
 */
export const BENCH_PROBE_TIMEOUT_MS = 4_000;

export interface BenchHost {
  readonly host: Host;
  dispose(): Promise<void>;
}

/**
 * A real Host over a registry of `servers` in a fresh data dir. The login-shell PATH lookup is off:
 * the bare SDK arm has none either, and every fixture is started by absolute path.
 */
export async function createBenchHost(
  label: string,
  servers: Record<string, ServerConfig>,
  extra: {
    stopGraces?: { stdinGraceMs: number; termGraceMs: number };
    connectTimeoutMs?: number;
    /** Top-level registry entries beside mcpServers (e.g. "model", "chat"). */
    registry?: Record<string, unknown>;
  } = {},
): Promise<BenchHost> {
  const { registry, ...hostOptions } = extra;
  const dir = freshDir(label);
  const configPath = join(dir, 'harbor.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers, ...registry }, null, 2));
  const host = await Host.create({
    configPath,
    dataDir: dir,
    appName: 'Harbor',
    appVersion: '0.0.0-bench',
    mode: 'cli',
    launchVariables: { node: NODE, resources: join(REPO, 'resources') },
    useLoginShellPath: false,
    probeTimeoutMs: BENCH_PROBE_TIMEOUT_MS,
    // Like --yes for launches: these benchmarks are about connections, not the consent prompt.
    approveLaunches: true,
    ...hostOptions,
  });
  let disposed: Promise<void> | undefined;
  return {
    host,
    dispose() {
      disposed ??= host.dispose().finally(() => rmSync(dir, { recursive: true, force: true }));
      return disposed;
    },
  };
}

/** Throws unless every server of the host is ready, naming the ones that are not. */
export function assertAllReady(host: Host): void {
  const notReady = host.servers.list().filter((s) => s.state.kind !== 'ready');
  if (notReady.length === 0) return;
  const lines = notReady.map((s) => {
    const st = s.state;
    return `  ${s.name}: ${st.kind}${st.kind === 'error' ? ` ${st.code}: ${st.message}${st.stderrTail ? `\n${st.stderrTail}` : ''}` : ''}`;
  });
  throw new Error(`servers not ready:\n${lines.join('\n')}`);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}
