/**
 * The built CLI with sandboxed servers: a call through the sandbox (the runtime loads from the
 * build, its helpers run), and a Harbor SIGKILLed while it holds a sandboxed stubborn server,
 * whose processes — bubblewrap and everything inside it — the next start sweeps.
 */
import { instanceAlive } from '../../main/host/servers/stdio/orphans';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarkedProcesses, killMarkedProcesses, uniqueMarker, waitForNoMarkedProcesses, type MarkedProcess } from '../fixtures/proc';
import { CLI, runCli } from '../helpers/cli';
import { FIXTURES, NODE, REPO, createTestHost, waitFor, type TestHost } from '../helpers/host';
import { requireSandboxInCi } from '../helpers/sandbox';

const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const STUBBORN = join(FIXTURES, 'adversarial/stubborn.mjs');
const PROBE = join(FIXTURES, 'sandbox-probe.mjs');

const problem = process.platform === 'linux' ? await requireSandboxInCi() : 'these tests run on Linux (they check processes through /proc)';

const dirs: string[] = [];
const markers: string[] = [];
const children: ChildProcess[] = [];
const hosts: TestHost[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const marker of markers.splice(0)) killMarkedProcesses(marker);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harbor-sandbox-cli-'));
  dirs.push(dir);
  return dir;
}

describe.skipIf(problem !== undefined)(`the CLI with sandboxed servers${problem ? ` (skipped: ${problem})` : ''}`, () => {
  it('harbor call runs a sandboxed server-filesystem: inside its folder it works, outside it is refused', async () => {
    const dir = scratch();
    const allowed = join(dir, 'allowed');
    const outside = join(dir, 'outside');
    mkdirSync(allowed);
    mkdirSync(outside);
    const config = join(dir, 'harbor.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { files: { command: NODE, args: [FILESYSTEM, allowed, outside], sandbox: { allowWrite: [allowed] } } } }));
    const base = ['--config', config, '--data-dir', join(dir, 'data')];

    const listed = await runCli([...base, '--json', 'servers', '--yes']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json<Record<string, unknown>>()).toEqual([expect.objectContaining({ name: 'files', sandboxed: true, state: 'ready' })]);
    const human = await runCli([...base, 'servers', '--yes']);
    expect(human.stdout).toMatch(/^files\s+ready\s+stdio sandboxed /m);

    const inside = await runCli([...base, 'call', 'files', 'write_file', '--yes', '--args', JSON.stringify({ path: join(allowed, 'a.txt'), content: 'from the CLI' })]);
    expect(inside.code, inside.stderr).toBe(0);
    expect(readFileSync(join(allowed, 'a.txt'), 'utf8')).toBe('from the CLI');

    const escaped = await runCli([...base, 'call', 'files', 'write_file', '--yes', '--args', JSON.stringify({ path: join(outside, 'b.txt'), content: 'no' })]);
    expect(escaped.code).toBe(1); // the tool returned isError
    expect(existsSync(join(outside, 'b.txt'))).toBe(false);
    // The refusal names what was refused and the registry rule that would allow it.
    expect(escaped.stderr).toContain(`sandbox refused writing to ${join(outside, 'b.txt')}`);
    expect(escaped.stderr).toContain(`"sandbox": { "allowWrite": [${JSON.stringify(outside)}] }`);
    expect(inside.stderr).not.toContain('sandbox refused');
  }, 120_000);

  it('harbor call on a sandboxed server refused a connection names the host and the allowedDomains rule on stderr', async () => {
    const dir = scratch();
    const listener = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const port = (listener.address() as AddressInfo).port;
      const config = join(dir, 'harbor.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { probe: { command: NODE, args: [PROBE], sandbox: true } } }));
      const run = await runCli(['--config', config, '--data-dir', join(dir, 'data'), 'call', 'probe', 'connect_via_proxy', '--yes', '--args', JSON.stringify({ url: `http://127.0.0.1:${port}/` })]);
      expect(run.stdout).toContain('"ok":false');
      const domain = `127.0.0.1:${port}`;
      expect(run.stderr).toContain(`sandbox refused a connection to ${domain}`);
      expect(run.stderr).toContain(`"sandbox": { "allowedDomains": [${JSON.stringify(domain)}] }`);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  }, 60_000);

  it('a Harbor SIGKILLed while holding a sandboxed stubborn server leaves nothing of it behind once the next start has swept', async () => {
    const dir = scratch();
    const marker = uniqueMarker('sandbox-orphan');
    markers.push(marker);
    const config = join(dir, 'harbor.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { stubborn: { command: NODE, args: [STUBBORN], env: { HARBOR_SERVER_MARKER: marker }, trusted: true, sandbox: true } } }));
    const child = spawn(NODE, [CLI, '--config', config, '--data-dir', dir, 'watch', 'stubborn', '--seconds', '120'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    // bubblewrap, the server and its grandchild (which ignore stdin EOF and SIGTERM). A count is not
    // enough: bubblewrap's two processes and the network helpers started inside it (bash, socat)
    // carry the marker too, and are more than three before the server has started its grandchild.
    const isServer = (p: MarkedProcess) => p.cmdline.startsWith(`${NODE} ${STUBBORN}`);
    const isGrandchild = (p: MarkedProcess) => p.cmdline.startsWith(`${NODE} -e `);
    await waitFor(() => {
      const alive = findMarkedProcesses(marker);
      return alive.some(isServer) && alive.some(isGrandchild);
    }, 'the sandboxed server and its grandchild', 30_000);
    const running = findMarkedProcesses(marker);
    expect(running.some((p) => /(?:^|\/)bwrap /.test(p.cmdline)), running.map((p) => p.cmdline).join('\n')).toBe(true);
    expect(running.filter((p) => p.cmdline.includes('stubborn.mjs') || p.cmdline.includes('setInterval')).length).toBeGreaterThanOrEqual(2);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // bubblewrap runs with --die-with-parent: the sandbox usually dies with its Harbor. Whatever
    // is left (a shell between them, say) carries the dead Harbor's instance, and the sweep takes it.
    const next = await createTestHost({});
    hosts.push(next);
    const report = await next.host.sweepOrphans();
    expect(report.supported).toBe(true);
    // It stops only what dead Harbors left: this one's, or another test's killed Harbor's (every start sweeps).
    expect(report.stopped.every((s) => instanceAlive(s.instance) === false)).toBe(true);
    expect(await waitForNoMarkedProcesses(marker, 5_000)).toEqual([]);
  }, 60_000);
});
