/**
 * Finding 1 attacked again (#27, the outsider's round), the attacks that held: the data folder
 * given through a symlink (as HARBOR_DATA_DIR or --data-dir may name it) is hidden under its real
 * path too; a server started with its cwd inside the data folder reads nothing there by a relative
 * path or through /proc/self/cwd; /proc/self/root and /proc/1/root lead nowhere (a fresh /proc in
 * a pid namespace of its own). Real bubblewrap, real server processes, beside an unsandboxed
 * control that reads every planted file.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../main/host/host';
import { FIXTURES, NODE, openHostOn } from '../helpers/host';
import { requireSandboxInCi } from '../helpers/sandbox';

const PROBE = join(FIXTURES, 'sandbox-probe.mjs');
const problem = process.platform === 'linux' ? await requireSandboxInCi() : 'these tests run the sandbox on Linux (bubblewrap)';

let host: Host;
let root: string;
let real: string;
let link: string;

async function read(server: string, path: string): Promise<{ ok: boolean; text?: string }> {
  const result = await host.calls.callTool(server, 'read_file', { path }, { consent: { approveOnce: true } });
  return result.structuredContent as { ok: boolean; text?: string };
}

describe.skipIf(problem !== undefined)(`the data folder by other paths${problem ? ` (skipped: ${problem})` : ''}`, () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'harbor-sec-paths-'));
    real = join(root, 'real-data');
    mkdirSync(real);
    link = join(root, 'data-link');
    symlinkSync(real, link);
    writeFileSync(join(real, 'tasks.db'), 'HARBOR-TASKS');
    const sandboxed = (extra: Record<string, unknown> = {}) => ({ command: NODE, args: [PROBE], sandbox: true, ...extra });
    writeFileSync(join(real, 'harbor.json'), JSON.stringify({ mcpServers: { control: { command: NODE, args: [PROBE] }, plain: sandboxed(), cwdlink: sandboxed({ cwd: link }), cwdreal: sandboxed({ cwd: real }) } }));
    // The Host is given the data folder by its link, as a person's HARBOR_DATA_DIR may name it.
    host = await openHostOn(link, { approveLaunches: true, probeTimeoutMs: 5_000, stopGraces: { stdinGraceMs: 300, termGraceMs: 300 } });
    await host.servers.startAll();
    for (const name of ['control', 'plain', 'cwdlink', 'cwdreal']) expect(host.servers.get(name).state, `${name}: ${host.servers.stderrTail(name)}`).toEqual({ kind: 'ready' });
  }, 120_000);

  afterAll(async () => {
    await host?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('the control, unsandboxed, reads the planted file by both paths', async () => {
    expect(await read('control', join(real, 'tasks.db'))).toMatchObject({ ok: true, text: 'HARBOR-TASKS' });
    expect(await read('control', join(link, 'tasks.db'))).toMatchObject({ ok: true, text: 'HARBOR-TASKS' });
  });

  it('a data folder named through a symlink is hidden under its real path and its link', async () => {
    expect(await read('plain', join(real, 'tasks.db'))).toMatchObject({ ok: false });
    expect(await read('plain', join(link, 'tasks.db'))).toMatchObject({ ok: false });
    expect(await read('plain', join(real, 'harbor.json'))).toMatchObject({ ok: false });
  });

  it('a cwd inside the data folder reads nothing there, by a relative path or /proc/self/cwd', async () => {
    for (const server of ['cwdlink', 'cwdreal']) {
      expect(await read(server, 'tasks.db'), server).toMatchObject({ ok: false });
      expect(await read(server, '/proc/self/cwd/tasks.db'), server).toMatchObject({ ok: false });
    }
  });

  it('/proc/self/root and /proc/1/root lead nowhere', async () => {
    for (const path of [`/proc/self/root${real}/tasks.db`, `/proc/1/root${real}/tasks.db`, '/proc/1/cwd/tasks.db']) expect(await read('plain', path), path).toMatchObject({ ok: false });
  });
});
