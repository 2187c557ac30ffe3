/**
 * The process tree under a pid, on Linux, macOS and Windows: what the Electron specs use to show
 * that quitting Harbor leaves no child (an MCP server, a grandchild it spawned, an Electron
 * helper) running.
 */
import { execFileSync } from 'node:child_process';

export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly command: string;
}

export function listProcesses(): ProcessInfo[] {
  if (process.platform === 'win32') {
    const json = execFileSync(
      'powershell.exe',
      ['-NoProfile', '-Command', 'Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId,CommandLine | ConvertTo-Json -Compress'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const rows = JSON.parse(json) as Array<{ ProcessId: number; ParentProcessId: number; CommandLine: string | null }>;
    return rows.map((r) => ({ pid: r.ProcessId, ppid: r.ParentProcessId, command: r.CommandLine ?? '' }));
  }
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,command='], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3]! }));
}

/** Every process descending from `root` (children, grandchildren, …), at this moment. */
export function descendantsOf(root: number, processes = listProcesses()): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of processes) {
      if (!parents.has(p.pid) && parents.has(p.ppid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours to signal — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
