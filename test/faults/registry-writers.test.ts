/**
 * Several writers of one harbor.json at once, as real processes: CLI imports side by side, a
 * long-running Host beside a CLI, the raw editor over a file that changed, first-run defaults
 * racing an import, and locks left by killed processes. Every edit must survive or fail loudly
 * (exit 2, "another Harbor is changing harbor.json; try again") — never a silent loss.
 * Needs the build (`npm run build`): the CLI runs as out/main/cli.js.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryStore } from '../../main/host/registry/store';
import { RegistryState } from '../../main/host/services/registry-state';
import { runCli } from '../helpers/cli';
import { NODE, createTestHost, type TestHost } from '../helpers/host';
import { workspace, type Workspace } from '../helpers/workspace';

const KEYCHAIN_SERVICE = `harbor-test-faults-registry-${process.pid}`;
const env = { HARBOR_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE };

let roots: string[] = [];
let host: TestHost | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function newWorkspace(file: Record<string, unknown> = { mcpServers: {} }): Workspace {
  const ws = workspace(file, 'harbor-faults-');
  roots.push(ws.root);
  return ws;
}

/** An import file with one server, `name`, and nothing secret in it (no keychain needed). */
function importFile(ws: Workspace, name: string): string {
  const path = join(ws.root, `${name}.json`);
  writeFileSync(path, JSON.stringify({ mcpServers: { [name]: { command: 'node', args: [`${name}.js`] } } }));
  return path;
}

/** `harbor import` of one server each, all started at once; how many servers the registry kept. */
async function importAtOnce(ws: Workspace, names: readonly string[]): Promise<{ kept: string[]; codes: (number | null)[]; stderr: string[] }> {
  const files = names.map((name) => importFile(ws, name));
  const runs = await Promise.all(files.map((file) => runCli([...ws.flags, 'import', file], { env, timeoutMs: 120_000 })));
  const kept = Object.keys(ws.registry().mcpServers).filter((name) => names.includes(name));
  return { kept, codes: runs.map((r) => r.code), stderr: runs.map((r) => r.stderr) };
}

/** A pid that is not running any more (a child that has exited and been reaped). */
function deadPid(): number {
  const child = spawnSync(NODE, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('concurrent writers of harbor.json', () => {
  it('ten `harbor import` at once, three rounds: every server is kept and every process says so truthfully', async () => {
    const lost: number[] = [];
    for (let round = 0; round < 3; round++) {
      const ws = newWorkspace();
      const names = Array.from({ length: 10 }, (_, i) => `s${round}x${i}`);
      const { kept, codes, stderr } = await importAtOnce(ws, names);
      lost.push(names.length - kept.length);
      // Exit 0 means the server is in the file; a process that could not get the lock says so (exit 2).
      const claimed = names.filter((_, i) => codes[i] === 0);
      expect(kept.sort(), `round ${round}: exit codes ${codes.join(',')}\n${stderr.join('\n')}`).toEqual(expect.arrayContaining(claimed));
      for (const [i, code] of codes.entries()) {
        if (code !== 0) expect(stderr[i]).toContain('another Harbor is changing harbor.json; try again');
      }
      expect(kept.length, `round ${round}: exit codes ${codes.join(',')}`).toBe(names.length);
    }
    console.info(`[faults] ten importers at once: servers lost per round ${lost.join(', ')}`);
  }, 600_000);

  it('a long-running Host keeps a server a CLI added while it ran, whatever the next change through its door', async () => {
    const ws = newWorkspace({ mcpServers: { first: { command: 'node', args: ['first.js'] } } });
    host = await createTestHost({ first: { command: 'node', args: ['first.js'] } });
    const config = join(host.dir, 'harbor.json');
    const flags = ['--config', config, '--data-dir', join(host.dir, 'cli-data')];

    const added = await runCli([...flags, 'import', importFile(ws, 'fromCli')], { env });
    expect(added.code, added.stderr).toBe(0);
    await host.host.registry.add('fromApp', { command: 'node', args: ['app.js'] });
    expect(Object.keys(JSON.parse(readFileSync(config, 'utf8')).mcpServers).sort()).toEqual(['first', 'fromApp', 'fromCli']);

    const again = await runCli([...flags, 'import', importFile(ws, 'fromCli2')], { env });
    expect(again.code, again.stderr).toBe(0);
    await host.host.settings.setChat({ maxSteps: 7 });
    expect(Object.keys(JSON.parse(readFileSync(config, 'utf8')).mcpServers).sort()).toEqual(['first', 'fromApp', 'fromCli', 'fromCli2']);

    const third = await runCli([...flags, 'import', importFile(ws, 'fromCli3')], { env });
    expect(third.code, third.stderr).toBe(0);
    await host.host.registry.setToolEnabled('first', 'some_tool', false);
    expect(Object.keys(JSON.parse(readFileSync(config, 'utf8')).mcpServers).sort()).toEqual(['first', 'fromApp', 'fromCli', 'fromCli2', 'fromCli3']);
  });

  it('the raw editor is refused when harbor.json changed since it was opened', async () => {
    host = await createTestHost({ first: { command: 'node', args: ['first.js'] } });
    const config = join(host.dir, 'harbor.json');
    const view = await host.host.registry.view();
    expect(view.hash).toMatch(/^[a-f0-9]{64}$/);
    const edited = JSON.stringify({ mcpServers: { first: { command: 'node', args: ['first.js'] }, mine: { command: 'node' } } }, null, 2);

    writeFileSync(config, JSON.stringify({ mcpServers: { first: { command: 'node', args: ['first.js'] }, other: { command: 'node' } } }, null, 2));
    await expect(host.host.registry.saveText(edited, view.hash)).rejects.toThrow('harbor.json changed since you opened it: reload');
    expect(Object.keys(JSON.parse(readFileSync(config, 'utf8')).mcpServers).sort()).toEqual(['first', 'other']);

    const fresh = await host.host.registry.view();
    const saved = await host.host.registry.saveText(edited, fresh.hash);
    expect(saved.saved).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(config, 'utf8')).mcpServers).sort()).toEqual(['first', 'mine']);
  });

  it('first-run defaults never replace a registry another process wrote meanwhile', async () => {
    const ws = newWorkspace();
    rmSync(ws.config);
    const imported = { mcpServers: { imported: { command: 'node', args: ['imported.js'] } } };
    // The defaults are computed after the read found no file: the import lands exactly then.
    const defaults = () => {
      writeFileSync(ws.config, JSON.stringify(imported));
      return { mcpServers: { example: { command: 'node' } } };
    };
    const state = new RegistryState(new RegistryStore(ws.config, defaults), ws.config, true);
    await state.reload();
    expect(JSON.parse(readFileSync(ws.config, 'utf8'))).toEqual(imported);
    expect([...state.servers.keys()]).toEqual(['imported']);
  });
});

describe('the registry lock', () => {
  it('a lock held by a live Harbor makes the writer give up after a few seconds with exit 2, writing nothing', async () => {
    const ws = newWorkspace();
    const before = readFileSync(ws.config, 'utf8');
    // This test process holds it: a live pid with its real start time.
    const { lockOwner } = await import('../../main/host/file-lock');
    writeFileSync(`${ws.config}.lock`, JSON.stringify(await lockOwner()));
    const started = Date.now();
    const run = await runCli([...ws.flags, 'import', importFile(ws, 'blocked')], { env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('another Harbor is changing harbor.json; try again');
    expect(Date.now() - started).toBeGreaterThan(2_000);
    expect(readFileSync(ws.config, 'utf8')).toBe(before);
  });

  it('a lock left by a dead process, or by a reused pid, is broken and the edit goes through', async () => {
    const ws = newWorkspace();
    writeFileSync(`${ws.config}.lock`, JSON.stringify({ pid: deadPid(), start: '1' }));
    const first = await runCli([...ws.flags, 'import', importFile(ws, 'afterDead')], { env });
    expect(first.code, first.stderr).toBe(0);

    // Our own pid, but another start time: the process that took the lock is gone, its pid reused.
    writeFileSync(`${ws.config}.lock`, JSON.stringify({ pid: process.pid, start: '1' }));
    const second = await runCli([...ws.flags, 'import', importFile(ws, 'afterReuse')], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(Object.keys(ws.registry().mcpServers).sort()).toEqual(['afterDead', 'afterReuse']);
    expect(existsSync(`${ws.config}.lock`)).toBe(false);
  });
});

describe('a broken registry', () => {
  it('says where the last good version is: harbor.json.bak', async () => {
    const ws = newWorkspace();
    const first = await runCli([...ws.flags, 'import', importFile(ws, 'kept')], { env });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(ws.config, '{ "mcpServers": { "kept": ');
    const run = await runCli([...ws.flags, 'servers'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${ws.config}.bak`);
  });
});

describe('debris after a kill', () => {
  const strace = spawnSync('strace', ['-V']).status === 0;

  it.skipIf(!strace)('a writer killed at the rename leaves no temp file behind once the next writer has run', async () => {
    const ws = newWorkspace();
    const killed = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', '-e', 'trace=rename,renameat,renameat2', '-e', 'inject=rename,renameat,renameat2:signal=SIGKILL:when=1', NODE, join(import.meta.dirname, '../../out/main/cli.js'), ...ws.flags, 'import', importFile(ws, 'killed')], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(killed.status, killed.stderr).not.toBe(0);
    expect(() => JSON.parse(readFileSync(ws.config, 'utf8'))).not.toThrow();
    const next = await runCli([...ws.flags, 'import', importFile(ws, 'next')], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(join(ws.root, 'config')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.skipIf(!strace)('a writer killed while it keeps the backup never leaves harbor.json.bak empty', async () => {
    const ws = newWorkspace();
    const first = await runCli([...ws.flags, 'import', importFile(ws, 'one')], { env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli([...ws.flags, 'import', importFile(ws, 'two')], { env });
    expect(second.code, second.stderr).toBe(0);
    const bak = `${ws.config}.bak`;
    expect(JSON.parse(readFileSync(bak, 'utf8')).mcpServers).toHaveProperty('one');
    // The old way copied the file onto .bak: a kill in the copy left it truncated.
    const copying = 'copy_file_range,sendfile';
    spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', '-e', `trace=${copying}`, '-e', `inject=${copying}:signal=SIGKILL:when=1`, NODE, join(import.meta.dirname, '../../out/main/cli.js'), ...ws.flags, 'import', importFile(ws, 'three')], { env: { ...process.env, ...env }, encoding: 'utf8' });
    const backup = readFileSync(bak, 'utf8');
    expect(backup.length).toBeGreaterThan(0);
    expect(() => JSON.parse(backup)).not.toThrow();
    expect(() => JSON.parse(readFileSync(ws.config, 'utf8'))).not.toThrow();
  });

  it('SIGKILL at random moments of a stream of writers: harbor.json always parses and .bak is never empty', async () => {
    const ws = newWorkspace({ mcpServers: { seed: { command: 'node' } } });
    const { spawn } = await import('node:child_process');
    for (let i = 0; i < 12; i++) {
      const child = spawn(NODE, [join(import.meta.dirname, '../../out/main/cli.js'), ...ws.flags, 'import', importFile(ws, `k${i}`)], { env: { ...process.env, ...env }, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Somewhere between start-up and the write (a CLI run takes about a second here).
      setTimeout(() => child.kill('SIGKILL'), 200 + Math.floor(Math.random() * 1_500));
      await exited;
      expect(() => JSON.parse(readFileSync(ws.config, 'utf8'))).not.toThrow();
      if (existsSync(`${ws.config}.bak`)) expect(() => JSON.parse(readFileSync(`${ws.config}.bak`, 'utf8'))).not.toThrow();
    }
  }, 300_000);
});
