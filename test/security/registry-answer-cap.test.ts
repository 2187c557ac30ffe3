/**
 * Finding 6 (round three): a registry answer had no size cap — a 1.5 GB body took Harbor to
 * 4.7 GB of memory. Every registry answer and every download is read as a stream and stopped at
 * its cap, with an error that says how big it was allowed to be. Real CLI processes against a
 * local registry on 127.0.0.1 whose answers never end; the CLI's resident memory is sampled from
 * /proc while it runs (measured here: about 131 MiB for the search, 267 MiB for the download that
 * stops at the 128 MiB bundle cap; before the fix the search read for its whole 5 s timeout).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CLI } from '../helpers/cli';
import { NODE, REPO } from '../helpers/host';
import { startRegistry, type LocalRegistry } from '../helpers/registry-server';
import { workspace } from '../helpers/workspace';

vi.setConfig({ testTimeout: 120_000 });

const ATTACKS = join(REPO, 'test/fixtures/registry/attacks');
const started: LocalRegistry[] = [];
const roots: string[] = [];

afterAll(async () => {
  for (const registry of started) await registry.stop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Resident memory of a process in MiB (0 once it is gone). */
function rssMiB(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.replace(/\D+/g, '')) / 1024 : 0;
  } catch {
    return 0; // the process has exited: nothing more to measure
  }
}

/** Runs the CLI, sampling its memory until it exits; a run that outgrows `killAboveMiB` is stopped (the attack worked). */
function measured(args: string[], killAboveMiB: number): Promise<{ code: number | null; stderr: string; peakMiB: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peakMiB = 0;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const sampler = setInterval(() => {
      peakMiB = Math.max(peakMiB, rssMiB(child.pid!));
      if (peakMiB > killAboveMiB) child.kill('SIGKILL');
    }, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      resolve({ code, stderr, peakMiB });
    });
  });
}

describe('a registry whose answers never end', () => {
  it('a search stops at the cap with a clear error, memory bounded', async () => {
    const registry = await startRegistry({ servers: ATTACKS, endless: 'all' });
    started.push(registry);
    const ws = workspace({ mcpServers: {} }, 'harbor-sec-cap-');
    roots.push(ws.root);
    const run = await measured([...ws.flags, 'gallery', 'search', 'x', '--registry', registry.url], 1024);
    expect(run.stderr, `peak ${Math.round(run.peakMiB)} MiB, exit ${run.code}`).toMatch(/larger than 8 MiB, the most Harbor reads from a registry/);
    expect(run.code).toBe(1);
    expect(run.peakMiB, `peak ${run.peakMiB} MiB`).toBeLessThan(170);
  });

  it('a download stops at the bundle cap with a clear error, memory bounded, nothing installed', async () => {
    const registry = await startRegistry({ servers: ATTACKS, endless: 'files' });
    started.push(registry);
    const ws = workspace({ mcpServers: {} }, 'harbor-sec-cap-');
    roots.push(ws.root);
    const before = readFileSync(ws.config, 'utf8');
    const run = await measured([...ws.flags, 'gallery', 'add', 'io.example/endless-bundle', '--registry', registry.url, '--yes'], 1024);
    expect(run.stderr).toMatch(/is larger than 128 MiB, the most Harbor installs\. Nothing was installed\./);
    expect(run.code).toBe(2);
    expect(run.peakMiB, `peak ${run.peakMiB} MiB`).toBeLessThan(400);
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
  });
});
