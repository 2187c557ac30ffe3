/**
 * The snapshot of a stopping server's descendants (#32, the exit tail of every one-shot command):
 * it walks the server's own subtree through /proc/<pid>/task/<tid>/children and reads the stat of
 * those processes alone, instead of the stat of every process on the machine. Run in a fresh Node
 * process (Node strips the types of the TypeScript source) whose reads of /proc are recorded.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE, REPO } from '../helpers/host';

describe.runIf(process.platform === 'linux')('snapshotDescendants', () => {
  it('finds a setsid grandchild of a real process tree and reads the stat of no process outside it', () => {
    const source = join(REPO, 'main/host/servers/stdio/process-tree.ts');
    // sh starts a sleep in a new session (outside the group) and a plain sleep, then waits for both.
    const script = `import { createRequire, syncBuiltinESMExports } from 'node:module';
import { spawn } from 'node:child_process';
const require = createRequire(import.meta.url);
const fsp = require('node:fs/promises');
const reads = [];
const readFile = fsp.readFile;
fsp.readFile = (path, ...rest) => { reads.push(String(path)); return readFile(path, ...rest); };
syncBuiltinESMExports();
const { snapshotDescendants } = await import(${JSON.stringify(source)});
const tree = spawn('sh', ['-c', 'setsid sleep 30 & sleep 30 & echo up; wait'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
await new Promise((resolve) => tree.stdout.once('data', resolve));
let found = [];
for (let i = 0; i < 200 && found.length < 2; i++) found = await snapshotDescendants(tree.pid);
try { process.kill(-tree.pid, 'SIGKILL'); } catch {}
for (const entry of found) { try { process.kill(entry.pid, 'SIGKILL'); } catch {} }
const statsRead = reads.filter((p) => /^\\/proc\\/\\d+\\/stat$/.test(p)).map((p) => Number(p.split('/')[2]));
console.log(JSON.stringify({ root: tree.pid, found, statsRead, self: process.pid }));`;
    const run = spawnSync(NODE, ['--no-warnings', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: REPO, timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const { root, found, statsRead, self } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { root: number; found: { pid: number; ppid: number }[]; statsRead: number[]; self: number };
    expect(found).toHaveLength(2);
    expect(found.every((entry) => entry.ppid === root)).toBe(true);
    // The old scan read every /proc/N/stat on the machine, this test's own process included.
    expect(statsRead).not.toContain(self);
    const inTree = new Set([root, ...found.map((entry) => entry.pid)]);
    expect(statsRead.filter((pid) => !inTree.has(pid))).toEqual([]);
  }, 90_000);
});
