/** CPU time of processes, read from /proc (Linux): what a benchmark's floor is made of. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (100 on every Linux we know of). */
const CLOCK_TICKS = (() => {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process so far, in ms (NaN when it cannot be read). */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3 of the file, utime 14 and stime 15 → indexes 11, 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (user + system, ms) of this process's children that have ended and been waited for —
 * a spawnSync'd command's own CPU, whatever else the machine is running. NaN off Linux.
 */
export function endedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of the file → indexes 13, 14.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
